"""The `companion` command (click): serve the app on the local network, or create the database."""

from __future__ import annotations

import ipaddress
import socket
import sys

import click
import segno

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


def serve(host: str, port: int, threads: int, workers: int = 1) -> None:
    from companion import create_app
    from companion.faq.search import search_engine
    from companion.ops import server

    app = create_app()
    url = f"http://{address_to_show(host)}:{port}/"
    server.configure(app, host, url, is_loopback(host))
    print(
        f"«Сто одно» is running. Open on a phone on the same network "
        f"/ Откройте на телефоне в той же сети:\n\n    {url}\n"
    )
    segno.make(url, error="m").terminal(compact=True)
    print(f"\nDatabase: {app.config['DATABASE']}  (Ctrl+C to stop)", flush=True)
    search_engine()  # the FAQ search learns before serving (and before gunicorn forks): no first query waits
    server.settle_memory()
    if workers > 1:
        server.run_gunicorn(app, host, port, workers, threads)
    else:
        server.run_waitress(app, host, port, threads)


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
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Processes; above 1 serves with gunicorn (Linux, macOS) so every core answers.")
def serve_command(host: str, port: int, threads: int, workers: int) -> None:
    if workers > 1:
        serve(host, port, threads, workers)
    else:
        serve(host, port, threads)


@cli.command("init-db", help="Create or upgrade the database in the instance folder.")
def init_db_command() -> None:
    init_db()


@cli.command("backup", help="Copy the database to FILE, consistent even while the app is serving.")
@click.argument("file", type=click.Path(dir_okay=False, writable=True))
def backup_command(file: str) -> None:
    from companion import create_app
    from companion.storage import backup

    app = create_app()
    count = backup.backup(app.config["DATABASE"], file)
    print(f"Backup written: {file} ({count} series)")


@cli.command("restore", help="Replace the database by the backup FILE (stop the server first).")
@click.argument("file", type=click.Path(dir_okay=False))
def restore_command(file: str) -> None:
    from companion import create_app
    from companion.storage import backup

    app = create_app()
    count = backup.restore(file, app.config["DATABASE"])
    print(f"Restored from {file}: {count} series in {app.config['DATABASE']}")


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
