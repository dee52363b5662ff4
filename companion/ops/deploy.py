"""HTTPS for a club in one step: the files `companion caddyfile --domain DOMAIN` writes.

Caddy in front gets and renews the certificate by itself (or, with `internal_ca`, signs one with
its own local authority: a LAN without a public name, or the CI test). The app listens on loopback
only, so Caddy is the one way in and the forwarded headers it sets are the only ones the app can
see (PROXY_FIX = 1 trusts exactly one proxy; Caddy replaces any X-Forwarded-* a client sent).
Browsers are told to stay on HTTPS (HSTS); on HTTPS the phones run the service worker, and the
edit cookie carries `Secure` (the app sets it from the forwarded scheme).

Files: Caddyfile, config.py (the instance config: PUBLIC_URL, TRUSTED_HOSTS, PROXY_FIX),
companion.service, companion-caddy.service, companion-backup.service and .timer (a nightly
`companion backup --dir … --keep N`), and INSTALL.txt (the commands that put them in place).
"""

from __future__ import annotations

import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

HSTS = "max-age=31536000"  # one year; no includeSubDomains: other names of the club's domain are not ours
_DOMAIN = re.compile(r"^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$")


class DeployRefused(ValueError):
    """A setting no file could be written with (a malformed domain name)."""


@dataclass(frozen=True)
class Deployment:
    domain: str
    port: int = 8101  # where `companion serve` listens, on loopback
    https_port: int = 443
    http_port: int = 80
    instance: str = "/var/lib/companion"
    user: str = "companion"
    backups: str = "/var/backups/companion"
    keep: int = 14
    internal_ca: bool = False  # `tls internal`: Caddy's own authority (a LAN, the CI test)
    admin: str = "localhost:2019"  # Caddy's admin endpoint; "off" disables it
    companion: str = ""  # the companion command; default: next to this Python
    caddy: str = "/usr/bin/caddy"

    @property
    def origin(self) -> str:
        return f"https://{self.domain}" + ("" if self.https_port == 443 else f":{self.https_port}")

    @property
    def command(self) -> str:
        return self.companion or str(Path(sys.executable).with_name("companion"))


def check_domain(domain: str) -> str:
    name = domain.strip().lower().rstrip(".")
    if not _DOMAIN.match(name) or name.replace(".", "").isdigit():
        raise DeployRefused(f"“{domain}” is not a domain name; write it as score.example.club")
    return name


def caddyfile(d: Deployment) -> str:
    options = [f"\tadmin {d.admin}"]
    if d.https_port != 443:
        options.append(f"\thttps_port {d.https_port}")
    if d.http_port != 80:
        options.append(f"\thttp_port {d.http_port}")
    if d.internal_ca:
        options.append("\tskip_install_trust  # the internal authority is not added to this system's trust store")
    site = d.domain if d.https_port == 443 else f"{d.domain}:{d.https_port}"
    tls = "\ttls internal\n" if d.internal_ca else ""
    option_lines = "\n".join(options)
    return f"""# Caddy in front of `companion serve` (written by `companion caddyfile`).
{{
{option_lines}
}}

{site} {{
{tls}\theader Strict-Transport-Security "{HSTS}"
\t# changes pushed to the phones: the events server `companion serve` starts on the next port
\t# (EVENTS_URL = "/events" in config.py); a stream is passed on as it comes, never compressed
\thandle /events/* {{
\t\treverse_proxy 127.0.0.1:{d.port + 1}
\t}}
\thandle {{
\t\tencode zstd gzip
\t\t# Caddy sets X-Forwarded-For / -Proto / -Host itself, replacing whatever a client sent;
\t\t# the app listens on 127.0.0.1 only and trusts one proxy (PROXY_FIX = 1 in config.py).
\t\treverse_proxy 127.0.0.1:{d.port}
\t}}
}}
"""


def instance_config(d: Deployment) -> str:
    return f"""# The companion's instance config behind Caddy (written by `companion caddyfile`).
PUBLIC_URL = "{d.origin}/"  # share links and QR codes
TRUSTED_HOSTS = ["{d.domain}"]  # the only Host accepted
PROXY_FIX = 1  # one proxy in front (Caddy): the client address and scheme come from its X-Forwarded-*
EVENTS_URL = "/events"  # where the phones hear of changes: Caddy passes it to the events server
"""


def _hardening(writable: str) -> str:
    return f"""NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
ReadWritePaths={writable}
PrivateTmp=yes"""


def companion_unit(d: Deployment) -> str:
    serve = shlex.join([d.command, "serve", "--host", "127.0.0.1", "--port", str(d.port)])
    return f"""[Unit]
Description=«Сто одно» table companion (behind Caddy)
After=network.target

[Service]
User={d.user}
Environment=COMPANION_INSTANCE={d.instance}
ExecStart={serve}
Restart=always
RestartSec=2
LimitNOFILE=65536
{_hardening(d.instance)}

[Install]
WantedBy=multi-user.target
"""


def caddy_unit(d: Deployment, folder: Path) -> str:
    config = folder / "Caddyfile"
    return f"""[Unit]
Description=Caddy: HTTPS in front of the «Сто одно» companion
After=network-online.target companion.service
Wants=network-online.target

[Service]
User=caddy
ExecStart={d.caddy} run --config {config} --adapter caddyfile
ExecReload={d.caddy} reload --config {config} --adapter caddyfile
Restart=on-failure
AmbientCapabilities=CAP_NET_BIND_SERVICE
LimitNOFILE=65536
Environment=XDG_DATA_HOME=/var/lib/caddy XDG_CONFIG_HOME=/etc/caddy
{_hardening("/var/lib/caddy")}

[Install]
WantedBy=multi-user.target
"""


def backup_units(d: Deployment) -> tuple[str, str]:
    run = shlex.join([d.command, "backup", "--dir", d.backups, "--keep", str(d.keep)])
    service = f"""[Unit]
Description=Back up the «Сто одно» companion's database (keeps the {d.keep} newest)

[Service]
Type=oneshot
User={d.user}
Environment=COMPANION_INSTANCE={d.instance}
ExecStart={run}
{_hardening(f"{d.instance} {d.backups}")}
"""
    timer = """[Unit]
Description=Nightly backup of the «Сто одно» companion

[Timer]
OnCalendar=*-*-* 04:30:00
RandomizedDelaySec=15min
Persistent=true

[Install]
WantedBy=timers.target
"""
    return service, timer


def install_text(d: Deployment, folder: Path) -> str:
    return f"""# As root, once (the files are in {folder}):
useradd --system --home {d.instance} --create-home {d.user}
mkdir -p {d.backups} && chown {d.user} {d.backups}
install -o {d.user} -m 0600 {folder}/config.py {d.instance}/config.py
cp {folder}/companion.service {folder}/companion-backup.service {folder}/companion-backup.timer /etc/systemd/system/
# Debian's caddy package runs /etc/caddy/Caddyfile with its own caddy.service:
cp {folder}/Caddyfile /etc/caddy/Caddyfile && systemctl reload-or-restart caddy
# (without that package: cp {folder}/companion-caddy.service /etc/systemd/system/ and enable it below)
systemctl daemon-reload
systemctl enable --now companion.service companion-backup.timer
# Then open {d.origin}/ on a phone. DNS for {d.domain} must point at this machine, ports 80 and 443 open.
"""


def write(d: Deployment, folder: Path) -> list[Path]:
    """Write every file into `folder` (created); returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    backup_service, backup_timer = backup_units(d)
    files = {
        "Caddyfile": caddyfile(d),
        "config.py": instance_config(d),
        "companion.service": companion_unit(d),
        "companion-caddy.service": caddy_unit(d, folder.resolve()),
        "companion-backup.service": backup_service,
        "companion-backup.timer": backup_timer,
        "INSTALL.txt": install_text(d, folder.resolve()),
    }
    written = []
    for name, text in files.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
