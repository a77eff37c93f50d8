"""A webhook receiver for tests that checks SADE's HMAC-SHA256 signature itself.

Usage: python3 webhook_sink.py DIR [--secret S] [--status CODE]
Prints "listening PORT". A POST with a valid X-SADE-Signature (or any POST when no
secret is given) is saved as DIR/<n>.json and answered with --status (default 200);
a bad or missing signature is answered 401 and not saved.
"""
import argparse, hashlib, hmac, json, os, threading
from parent_watch import exit_when_parent_ends
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("--secret")
    parser.add_argument("--status", type=int, default=200)
    args = parser.parse_args()
    lock = threading.Lock()
    counter = [0]

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            if args.secret is not None:
                timestamp = self.headers.get("X-SADE-Timestamp", "")
                expected = "sha256=" + hmac.new(args.secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
                if not hmac.compare_digest(expected, self.headers.get("X-SADE-Signature", "")):
                    self.send_response(401)
                    self.end_headers()
                    return
            if args.status < 300:
                with lock:
                    counter[0] += 1
                    number = counter[0]
                path = os.path.join(args.directory, "%04d.json" % number)
                with open(path + ".tmp", "wb") as f:
                    f.write(body)
                os.rename(path + ".tmp", path)
            self.send_response(args.status)
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print("listening %d" % server.server_address[1], flush=True)
    exit_when_parent_ends()
    server.serve_forever()


if __name__ == "__main__":
    main()
