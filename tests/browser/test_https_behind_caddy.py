"""HTTPS for a club, as deployed: Debian's Caddy with its internal authority in front of `companion serve`,
configured by `companion caddyfile`, and Chromium trusting that authority (issue 24).

On HTTPS the phone runs the service worker (the app opens with the network off), the manifest makes the
app installable, and the edit cookie carries `Secure`.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARGS, CHROMIUM, PHONE

CADDY = shutil.which("caddy") or "/usr/bin/caddy"
DOMAIN = "club.test"  # a name, not localhost: Chromium treats localhost as secure even over plain HTTP
ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif((not os.path.exists(CADDY) or not shutil.which("certutil")) and not os.environ.get("CI"),
                       reason="caddy or certutil is missing (apt-get install caddy libnss3-tools; "
                              "set CI=1 to make this an error)"),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(check: Any, what: str, seconds: float = 60) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"waited {seconds:.0f} s for {what}")


def app_port() -> int:
    """A free port whose next one is free too: the events server's, which the Caddyfile routes /events/ to."""
    while True:
        port = free_port()
        try:
            with socket.socket() as tcp, socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
                tcp.bind(("127.0.0.1", port + 1))
                udp.bind(("127.0.0.1", port + 1))
            return port
        except OSError:
            continue


class Deployed:
    """`companion caddyfile` output put in place: the app on loopback, Caddy in front, on free ports."""

    def __init__(self, tmp: Path) -> None:
        self.app_port, self.https_port, self.http_port = app_port(), free_port(), free_port()
        self.origin = f"https://{DOMAIN}:{self.https_port}"
        self.instance, out, home = tmp / "instance", tmp / "deploy", tmp / "home"
        self.instance.mkdir()
        home.mkdir()
        self.home = home
        cli = [sys.executable, "-m", "companion.ops.cli"]
        env = {**os.environ, "COMPANION_INSTANCE": str(self.instance)}
        subprocess.run([*cli, "caddyfile", "--domain", DOMAIN, "--out", str(out), "--port", str(self.app_port),
                        "--https-port", str(self.https_port), "--http-port", str(self.http_port), "--internal-ca",
                        "--admin", "off", "--instance", str(self.instance)],
                       check=True, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
        shutil.copy(out / "config.py", self.instance / "config.py")
        self.processes = [
            subprocess.Popen([*cli, "serve", "--host", "127.0.0.1", "--port", str(self.app_port), "--workers", "1"],
                             cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
            subprocess.Popen([CADDY, "run", "--config", str(out / "Caddyfile"), "--adapter", "caddyfile"],
                             env={**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
                                  "XDG_CONFIG_HOME": str(home / "config")},
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
        ]
        self.root_ca = home / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        wait_for(self.root_ca.exists, "Caddy's internal authority")
        wait_for(self.answers, "the app behind Caddy")

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
        """A request to the club's name through Caddy, verified against Caddy's own authority."""
        trusted = ssl.create_default_context(cafile=str(self.root_ca))
        conn = http.client.HTTPSConnection(DOMAIN, self.https_port, context=trusted, timeout=10)
        raw = socket.create_connection(("127.0.0.1", self.https_port), timeout=10)  # the name, mapped here
        conn.sock = trusted.wrap_socket(raw, server_hostname=DOMAIN)
        try:
            data = json.dumps(body).encode() if body is not None else None
            sent = {**({"Content-Type": "application/json"} if data else {}), **(headers or {})}
            conn.request(method, path, body=data, headers=sent)
            answer = conn.getresponse()
            content = answer.read()
            kind = answer.getheader("Content-Type") or ""
            return answer.status, dict(answer.getheaders()), json.loads(content) if "json" in kind else content
        finally:
            conn.close()

    def answers(self) -> bool:
        try:
            return self.request("GET", "/api/v1/health")[0] == 200
        except (OSError, http.client.HTTPException):
            return False

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture
def deployed(tmp_path: Path) -> Iterator[Deployed]:
    site = Deployed(tmp_path)
    yield site
    site.stop()


def trusting_chromium(site: Deployed, browser: Any) -> Any:
    """Chromium with Caddy's root in its own NSS database (a fresh HOME), the test name mapped to loopback,
    and a profile of its own (an incognito context is never installable)."""
    nssdb = site.home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "caddy-local", "-i",
                    str(site.root_ca)], check=True)
    return browser.browser_type.launch_persistent_context(  # the session's Playwright, a Chromium of its own
        str(site.home / "profile"), executable_path=CHROMIUM,
        args=[*ARGS, f"--host-resolver-rules=MAP {DOMAIN} 127.0.0.1"], env={**os.environ, "HOME": str(site.home)},
        viewport=PHONE, locale="ru-RU", service_workers="allow")


def test_https_behind_caddy_gives_the_phone_its_offline_shell_install_and_secure_cookie(deployed: Deployed,
                                                                                       browser: Any) -> None:
    status, headers, _ = deployed.request("GET", "/")
    assert status == 200 and headers["Strict-Transport-Security"] == "max-age=31536000"
    status, _, created = deployed.request("POST", "/api/v1/series", {"players": ["Аня", "Борис"], "starter": "Аня"})
    assert status == 201

    context = trusting_chromium(deployed, browser)
    try:
        context.set_default_timeout(20_000)
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(deployed.origin + "/")  # a valid certificate: no interstitial, a secure context
        assert page.evaluate("window.isSecureContext") is True
        state = page.evaluate("""async () => {
            const registration = await navigator.serviceWorker.ready;
            const worker = registration.active;
            if (worker.state !== "activated") {
                await new Promise((done) => worker.addEventListener("statechange", () => {
                    if (worker.state === "activated") done();
                }));
            }
            return worker.state;
        }""")
        assert state == "activated"
        page.reload()  # now controlled by the worker
        assert page.evaluate("navigator.serviceWorker.controller !== null") is True

        session = context.new_cdp_session(page)
        manifest = session.send("Page.getAppManifest")
        assert manifest["url"].startswith(deployed.origin) and not manifest.get("errors")
        installability = session.send("Page.getInstallabilityErrors")
        assert installability["installabilityErrors"] == []

        # a reader's standings come whole through Caddy's /events/ route: the events server fetched them from the
        # app by the domain's name (TRUSTED_HOSTS), and the phone asked for nothing
        page.goto(f"{deployed.origin}/series/{created['id']}")
        page.wait_for_selector("html[data-pushed=open]", state="attached")
        page.wait_for_timeout(300)  # the stream's opening asked once what changed meanwhile
        asked: list[str] = []

        def record(request: Any) -> None:
            asked.append(request.url)

        page.on("request", record)
        saved, _, _ = deployed.request("POST", f"/api/v1/series/{created['id']}/rounds",
                                       {"winner": "Аня", "finishing_card": "9h", "typed_points": {"Борис": 5}},
                                       {"Authorization": f"Bearer {created['edit_token']}"})
        assert saved == 201
        expect(page.locator("#live .player", has_text="Борис").locator(".total")).to_have_text("5", timeout=2000)
        assert asked == []
        page.remove_listener("request", record)

        page.goto(f"{deployed.origin}/series/{created['id']}/edit?token={created['edit_token']}")
        cookie = next(c for c in context.cookies() if c["name"] == f"e_{created['id']}")
        assert cookie["secure"] is True and cookie["httpOnly"] is True

        page.goto(f"{deployed.origin}/series/{created['id']}")  # changes pushed through Caddy's /events/ route
        page.wait_for_selector("html[data-pushed=open]", state="attached")
        saved, _, _ = deployed.request("POST", f"/api/v1/series/{created['id']}/rounds",
                                       {"winner": "Аня", "finishing_card": "9h", "typed_points": {"Борис": 12}},
                                       {"Authorization": f"Bearer {created['edit_token']}"})
        assert saved == 201
        expect(page.locator("#live .player", has_text="Борис").locator(".total")).to_have_text("17", timeout=5000)

        start_title = page.goto(deployed.origin + "/") and page.title()
        context.set_offline(True)
        offline = page.goto(deployed.origin + "/")
        assert offline is not None and offline.ok and page.title() == start_title
        assert page.evaluate("getComputedStyle(document.body).fontFamily") != ""  # the shell's CSS, from the cache
        page.screenshot(path="/tmp/companion-https-offline.png")
        context.set_offline(False)
    finally:
        context.close()
