"""A Web Push service stand-in for tests: checks what a push service checks and
decrypts what only the subscribed browser could, with independent implementations
(py_vapid for the VAPID JWT, http_ece for RFC 8291's aes128gcm).

Usage: python3 push_service.py DIR --cert C --key K [--subscribers N]
Listens on 127.0.0.1 over TLS and prints "listening PORT". Makes N subscribers (their
keys held here, as a browser holds them) and writes DIR/subscribers.json:
[{"name", "endpoint", "p256dh", "auth"}]. A POST to /push/NAME:
- answers 400 without a valid `vapid t=…, k=…` Authorization whose JWT is signed by k,
  has aud = this service's origin, exp within 24 h and a sub;
- answers the next status in DIR/NAME.status if there is one (one per line,
  "STATUS [RETRY-AFTER]", consumed as used) — 201 when none is left;
- on 201 decrypts the body and saves DIR/received/NNNN.json: {"subscriber", "ttl",
  "urgency", "topic", "vapidKey", "payload": the decrypted JSON}.
"""
import argparse, base64, json, os, ssl, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import jwt as vapid_jwt
from parent_watch import exit_when_parent_ends


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--subscribers", type=int, default=1)
    args = parser.parse_args()
    received = os.path.join(args.directory, "received")
    os.makedirs(received, exist_ok=True)
    lock = threading.Lock()
    counter = [0]
    subscribers = {}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def answer(self, status, retry_after=None, text=b""):
            self.send_response(status)
            if retry_after is not None:
                self.send_header("Retry-After", retry_after)
            self.send_header("Content-Length", str(len(text)))
            self.end_headers()
            self.wfile.write(text)

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            name = self.path.rsplit("/", 1)[-1]
            if not self.path.startswith("/push/") or name not in subscribers:
                return self.answer(404)
            claims, key = self.vapid()
            if claims is None:
                return self.answer(400, text=key.encode())
            status, retry_after = self.next_status(name)
            if status != 201:
                return self.answer(status, retry_after)
            private_key, auth = subscribers[name]
            payload = http_ece.decrypt(body, private_key=private_key, auth_secret=auth, version="aes128gcm")
            record = {
                "subscriber": name, "ttl": self.headers.get("TTL"), "urgency": self.headers.get("Urgency"),
                "topic": self.headers.get("Topic"), "vapidKey": key, "contentEncoding": self.headers.get("Content-Encoding"),
                "size": len(body), "payload": json.loads(payload),
            }
            with lock:
                counter[0] += 1
                path = os.path.join(received, "%04d.json" % counter[0])
            with open(path + ".tmp", "w") as f:
                json.dump(record, f)
            os.rename(path + ".tmp", path)
            self.answer(201)

        def vapid(self):
            header = self.headers.get("Authorization", "")
            if not header.startswith("vapid "):
                return None, "no vapid authorization"
            parts = dict(part.strip().split("=", 1) for part in header[6:].split(",") if "=" in part)
            if "t" not in parts or "k" not in parts:
                return None, "t and k are needed"
            try:
                claims = vapid_jwt.decode(parts["t"], parts["k"])
            except Exception as error:
                return None, "bad signature: %r" % error
            origin = "https://localhost:%d" % port if self.headers.get("Host", "").startswith("localhost") else "https://127.0.0.1:%d" % port
            if claims.get("aud") != origin:
                return None, "aud %r is not %s" % (claims.get("aud"), origin)
            if not (time.time() < claims.get("exp", 0) <= time.time() + 86400):
                return None, "exp out of range"
            if not claims.get("sub"):
                return None, "no sub"
            return claims, parts["k"]

        def next_status(self, name):
            path = os.path.join(args.directory, name + ".status")
            with lock:
                if not os.path.exists(path):
                    return 201, None
                with open(path) as f:
                    lines = [line.split() for line in f if line.strip()]
                if not lines:
                    return 201, None
                first, rest = lines[0], lines[1:]
                with open(path, "w") as f:
                    f.writelines(" ".join(line) + "\n" for line in rest)
            return int(first[0]), (first[1] if len(first) > 1 else None)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port = server.server_address[1]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert, args.key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    listing = []
    for number in range(args.subscribers):
        name = "s%d" % (number + 1)
        private_key = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        subscribers[name] = (private_key, auth)
        point = private_key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        listing.append({"name": name, "endpoint": "https://localhost:%d/push/%s" % (port, name), "p256dh": b64url(point), "auth": b64url(auth)})
    with open(os.path.join(args.directory, "subscribers.json.tmp"), "w") as f:
        json.dump(listing, f)
    os.rename(os.path.join(args.directory, "subscribers.json.tmp"), os.path.join(args.directory, "subscribers.json"))
    print("listening %d" % port, flush=True)
    exit_when_parent_ends()
    server.serve_forever()


if __name__ == "__main__":
    main()
