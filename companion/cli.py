"""The `companion` command: serve the app on the local network, or create the database."""

from __future__ import annotations

import argparse
import socket
import sys

import segno


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


def serve(host: str, port: int, threads: int) -> None:
    from waitress import serve as waitress_serve

    from . import create_app

    app = create_app()
    url = f"http://{lan_address()}:{port}/"
    app.config.setdefault("PUBLIC_URL", url)  # links and QR codes shown on this machine point here
    print(f"«Сто одно» is running. Open on a phone on the same network / Откройте на телефоне в той же сети:\n\n    {url}\n")
    segno.make(url, error="m").terminal(compact=True)
    print(f"\nDatabase: {app.config['DATABASE']}  (Ctrl+C to stop)", flush=True)
    waitress_serve(app, host=host, port=port, threads=threads, ident="companion101")


def init_db() -> None:
    from . import create_app

    app = create_app()
    print(f"Database ready: {app.config['DATABASE']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", description="«Сто одно» (101) table companion")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="serve the phone UI on the local network")
    run.add_argument("--host", default="0.0.0.0", help="interface to listen on (default: all)")
    run.add_argument("--port", type=int, default=8101, help="port (default: 8101)")
    run.add_argument("--threads", type=int, default=8)
    commands.add_parser("init-db", help="create or upgrade the database")
    args = parser.parse_args(argv)
    if args.command == "serve":
        serve(args.host, args.port, args.threads)
    else:
        init_db()
    return 0


if __name__ == "__main__":
    sys.exit(main())
