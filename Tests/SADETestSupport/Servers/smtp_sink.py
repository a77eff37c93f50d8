"""A real SMTP server for tests: aiosmtpd on loopback, saving every message.

Usage: python3 smtp_sink.py DIR [--port N] [--user U --password P] [--tls-cert C --tls-key K]
Prints "listening PORT" once ready. Each message becomes DIR/<n>.json with the
envelope (mail_from, rcpt_tos) and the data exactly as received (after SMTP
dot-unstuffing, which aiosmtpd does).
"""
import argparse, asyncio, json, os, socket, sys, threading
from parent_watch import wait_for_parent_to_end

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class Saver:
    def __init__(self, directory):
        self.directory = directory
        self.count = 0
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.count += 1
            number = self.count
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "data": envelope.content.decode("utf-8", errors="replace"),
        }
        path = os.path.join(self.directory, "%04d.json" % number)
        with open(path + ".tmp", "w") as f:
            json.dump(record, f)
        os.rename(path + ".tmp", path)
        return "250 OK saved"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--user")
    parser.add_argument("--password")
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    args = parser.parse_args()
    port = args.port
    if port == 0:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    kwargs = {}
    if args.user:
        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == args.user \
                and auth_data.password.decode() == args.password
            return AuthResult(success=ok, handled=False)
        kwargs = dict(authenticator=authenticator, auth_require_tls=False, auth_required=True)
    if args.tls_cert:
        import ssl
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.tls_cert, args.tls_key)
        kwargs.update(tls_context=context, require_starttls=True)
    controller = Controller(Saver(args.directory), hostname="127.0.0.1", port=port, **kwargs)
    controller.start()
    print("listening %d" % port, flush=True)
    try:
        wait_for_parent_to_end()
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
