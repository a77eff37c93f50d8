"""A real SMTP server for tests: aiosmtpd on loopback, saving every message.

Usage: python3 smtp_sink.py DIR [--socket-fd N] [--user U --password P] [--tls-cert C --tls-key K]
Listens on the bound socket it was given as descriptor N (a port the test holds from the
start, so no one else can take it), else on a loopback port the system chooses; prints
"listening PORT" once ready. Each message becomes DIR/<n>.json with the
envelope (mail_from, rcpt_tos) and the data exactly as received (after SMTP
dot-unstuffing, which aiosmtpd does).
"""
import argparse, asyncio, json, os, socket, sys, threading
from parent_watch import wait_for_parent_to_end

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class SocketController(Controller):
    """aiosmtpd's threaded controller on a socket already bound, instead of host and port."""

    def __init__(self, handler, sock, **kwargs):
        self.sock = sock
        super().__init__(handler, hostname="127.0.0.1", port=sock.getsockname()[1], **kwargs)

    def _create_server(self):
        return self.loop.create_server(self._factory_invoker, sock=self.sock, ssl=self.ssl_context)


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
    parser.add_argument("--socket-fd", type=int)
    parser.add_argument("--user")
    parser.add_argument("--password")
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    args = parser.parse_args()
    if args.socket_fd is not None:
        sock = socket.socket(fileno=args.socket_fd)
    else:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
    sock.listen(100)
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
    controller = SocketController(Saver(args.directory), sock, **kwargs)
    controller.start()
    print("listening %d" % controller.port, flush=True)
    try:
        wait_for_parent_to_end()
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
