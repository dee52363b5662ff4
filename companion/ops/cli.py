"""The `companion` command (click): serve the app on the local network, or create the database."""

from __future__ import annotations

import ipaddress
import socket
import sys

import click
import segno

from companion.ops import servers

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 8101
DEFAULT_THREADS = 8


def lan_address() -> str:
    """The address other phones on the same network can reach (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("198.51.100.1", 9))  # a UDP connect only picks a route and sends nothing
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def address_to_show(host: str) -> str:
    """The host part of the address to print: one that reaches the server listening on `host`.

    Listening on every interface (0.0.0.0, ::, empty), other phones reach it at the
    machine's network address; listening on one address (127.0.0.1, a LAN IP, a name),
    only that address serves.
    """
    if host in ("", "0.0.0.0", "::"):
        return lan_address()
    try:
        if ipaddress.ip_address(host).version == 6:
            return f"[{host}]"
    except ValueError:
        pass  # a host name
    return host


def serve(host: str, port: int, threads: int, workers: int | None = None, kind: str | None = None,
          events_port: int | None = None) -> None:
    """Serve the app in `workers` processes (default: one per core) with `kind`: granian (the default
    on Linux), waitress (the default elsewhere; one process where the system cannot share a port
    between processes) or gunicorn gthread. Under granian, changes are pushed to the phones from
    `events_port` (default: the next port; 0: the phones poll, as under the other servers)."""
    from companion import create_app
    from companion.faq.search import search_engine
    from companion.storage import backup

    app = create_app()
    url = f"http://{address_to_show(host)}:{port}/"
    servers.configure(app, host, url, is_loopback(host))
    kind = kind or servers.default_server()
    if kind == "granian" and not servers.granian_available():
        raise SystemExit("companion: granian is not installed here (or cannot fork its workers on this system); "
                         "serve with --server waitress")
    count = workers or servers.default_workers()
    if kind == "waitress" and not servers.can_reuse_port():
        count = 1
    pushed = servers.events_port(host, port, events_port) if kind == "granian" else None
    if pushed:
        app.config["EVENTS_PORT"] = pushed  # the workers fork with it: they tell the events server of writes
    print(
        f"«Сто одно» is running. Open on a phone on the same network "
        f"/ Откройте на телефоне в той же сети:\n\n    {url}\n"
    )
    segno.make(url, error="m").terminal(compact=True)
    print(f"\nDatabase: {app.config['DATABASE']}  ({kind}, {count} process{'es' if count > 1 else ''}; "
          f"{f'live changes pushed from port {pushed}; ' if pushed else ''}Ctrl+C to stop)", flush=True)
    with app.app_context():  # the FAQ search learns (or reads back what it learned) before serving and forking
        search_engine()
    servers.settle_memory(forks=not (kind == "waitress" and count <= 1))
    with backup.serving(app.config["DATABASE"]):  # `companion restore` refuses while this is held
        servers.run(kind, app, host, port, threads, count)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def init_db() -> None:
    from companion import create_app

    app = create_app()
    print(f"Database ready: {app.config['DATABASE']}")


@click.group(help="«Сто одно» (101) table companion: scorekeeper, referee and scoresheet.")
def cli() -> None:
    pass


@cli.command("serve", help="Serve the phone UI (by default on every interface of this machine).")
@click.option(
    "--host",
    default=DEFAULT_HOST,
    show_default=True,
    help="Interface to listen on; 127.0.0.1 serves this machine only.",
)
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(1, 65535), help="TCP port.")
@click.option("--threads", default=DEFAULT_THREADS, show_default=True, type=click.IntRange(1, 256),
              help="Worker threads answering requests.")
@click.option("--workers", default=None, type=click.IntRange(1, 64),
              help="Processes; default: one per core (waitress: one outside Linux).")
@click.option("--server", "kind", type=click.Choice(servers.SERVERS), default=None,
              help="granian (the default on Linux): HTTP in Rust, slow and idle clients cost a socket only; "
                   "waitress (the default elsewhere): buffers each request in Python before a thread takes it; "
                   "gthread: gunicorn with threads (Linux, macOS), kept for comparison.")
@click.option("--events-port", default=None, type=click.IntRange(0, 65535),
              help="granian: the port changes are pushed to the phones from (TCP, and UDP on loopback from the "
                   "app); default: --port + 1; 0: no push, the phones poll.")
def serve_command(host: str, port: int, threads: int, workers: int | None, kind: str | None,
                  events_port: int | None) -> None:
    serve(host, port, threads, workers, kind, events_port)


@cli.command("init-db", help="Create or upgrade the database in the instance folder.")
def init_db_command() -> None:
    init_db()


@cli.command("backup", help="Copy the database to FILE (or into --dir, keeping the --keep newest), "
                             "consistent even while the app is serving.")
@click.argument("file", required=False, type=click.Path(dir_okay=False, writable=True))
@click.option("--dir", "folder", type=click.Path(file_okay=False), default=None,
              help="Write companion-<UTC time>.sqlite3 into this folder instead of FILE.")
@click.option("--keep", default=14, show_default=True, type=click.IntRange(1, 10_000),
              help="With --dir: how many backups to keep (the oldest are removed).")
def backup_command(file: str | None, folder: str | None, keep: int) -> None:
    from companion import create_app
    from companion.storage import backup

    if (file is None) == (folder is None):
        raise click.UsageError("give either FILE or --dir FOLDER")
    app = create_app()
    if folder is not None:
        written, removed = backup.rotate(folder, keep, app.config["DATABASE"])
        print(f"Backup written: {written} ({backup.count_series(str(written))} series); "
              f"{len(removed)} older removed, {keep} kept at most")
        return
    assert file is not None
    count = backup.backup(app.config["DATABASE"], file)
    print(f"Backup written: {file} ({count} series)")


@cli.command("restore", help="Replace the database by the backup FILE (refused while a server uses it; "
                              "what it replaces is kept beside it).")
@click.argument("file", type=click.Path(dir_okay=False))
def restore_command(file: str) -> None:
    from companion import create_app
    from companion.storage import backup

    app = create_app()
    try:
        done = backup.restore(file, app.config["DATABASE"])
    except backup.DatabaseInUse as error:
        raise click.ClickException(str(error)) from None
    kept = f"; the previous content is kept in {done.replaced}" if done.replaced else ""
    print(f"Restored from {file}: {done.series} series in {app.config['DATABASE']}{kept}")


@cli.command("caddyfile", help="Write what HTTPS for a club needs, in one step: a Caddy config (automatic "
                                "certificates, HSTS) in front of `companion serve`, the instance config, systemd units "
                                "for both and a nightly backup timer with rotation. Then follow OUT/INSTALL.txt.")
@click.option("--domain", required=True, help="The public name phones open, e.g. score.example.club.")
@click.option("--out", "folder", default="companion-https", show_default=True, type=click.Path(file_okay=False),
              help="Folder to write the files into.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(1, 65535),
              help="Port `companion serve` listens on (loopback only).")
@click.option("--instance", default="/var/lib/companion", show_default=True, help="COMPANION_INSTANCE of the service.")
@click.option("--user", default="companion", show_default=True, help="System user the service runs as.")
@click.option("--backups", default="/var/backups/companion", show_default=True, help="Folder of the nightly backups.")
@click.option("--keep", default=14, show_default=True, type=click.IntRange(1, 10_000), help="Backups kept.")
@click.option("--https-port", default=443, show_default=True, type=click.IntRange(1, 65535))
@click.option("--http-port", default=80, show_default=True, type=click.IntRange(1, 65535))
@click.option("--internal-ca", is_flag=True,
              help="Sign with Caddy's own local authority instead of Let's Encrypt (a LAN without a public name).")
@click.option("--admin", default="localhost:2019", show_default=True, help="Caddy's admin address, or off.")
def caddyfile_command(domain: str, folder: str, port: int, instance: str, user: str, backups: str, keep: int,
                      https_port: int, http_port: int, internal_ca: bool, admin: str) -> None:
    from pathlib import Path

    from companion.ops import deploy

    try:
        name = deploy.check_domain(domain)
    except deploy.DeployRefused as error:
        raise click.BadParameter(str(error), param_hint="--domain") from None
    setup = deploy.Deployment(domain=name, port=port, https_port=https_port, http_port=http_port,
                              instance=instance, user=user, backups=backups, keep=keep, internal_ca=internal_ca,
                              admin=admin)
    for path in deploy.write(setup, Path(folder)):
        print(f"wrote {path}")
    print(f"\nNext, as root: see {Path(folder) / 'INSTALL.txt'}; then open {setup.origin}/ on a phone.")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (used by tests and `python -m companion.cli`)."""
    try:
        cli.main(args=argv, prog_name="companion", standalone_mode=False)
    except click.exceptions.Exit as done:
        return int(done.exit_code)
    except click.ClickException as error:
        error.show()
        return error.exit_code
    except click.exceptions.Abort:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
