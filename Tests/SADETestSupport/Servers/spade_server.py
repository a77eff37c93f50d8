"""SPADE's own XMPP server (pyjabber, what `spade run` starts) for the interop tests.

  spade_server.py CLIENT_PORT SERVER_PORT
      serves the domain `localhost` (on the addresses `localhost` has), accounts in
      ./pyjabber.db (made afresh), registration open; prints "listening CLIENT_PORT"
      once it accepts clients; runs until SIGTERM or SIGKILL to its process group.
"""
import asyncio
import os
import signal
import sys

from concurrent.futures import ThreadPoolExecutor

import pyjabber.http_server
import pyjabber.server
from loguru import logger
from pyjabber.server import Server
from pyjabber.server_parameters import Parameters

# pyjabber hashes passwords (PBKDF2, which releases the GIL) in a process pool whose
# workers it forks lazily from a process that already runs threads (aiosqlite's, the
# logger's); a fork taken while one of them holds a lock leaves the worker stuck, and
# every later login waits on it (sessions stalled at opening). Threads do the same work.
pyjabber.server.ProcessPoolExecutor = ThreadPoolExecutor


async def no_admin_page(self):
    """pyjabber would serve an admin page on port 9090, fixed: two servers would clash."""


pyjabber.http_server.HttpServer.start = no_admin_page


async def main():
    client_port, server_port = int(sys.argv[1]), int(sys.argv[2])
    asyncio.get_running_loop().call_later(170, os._exit, 2)  # a test's server never outlives it
    server = Server(Parameters(host="localhost", client_port=client_port, server_port=server_port,
                               # A file in the working directory, not memory: each new
                               # SQLite connection to ":memory:" is another, empty database,
                               # and pyjabber opens more under concurrent logins.
                               database_path=os.path.join(os.getcwd(), "pyjabber.db"), database_purge=True,
                               message_persistence=False))
    started = asyncio.ensure_future(server.start())
    await server.ready.wait()
    print(f"listening {client_port}", flush=True)
    await started


if __name__ == "__main__":
    if os.getpid() != os.getsid(0):
        os.setpgrp()  # the test stops the server and whatever it started as one group
    # The test process blocks SIGTERM in its threads, and a blocked mask survives exec.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    logger.remove()
    logger.add(sys.stderr, level="WARNING")
    asyncio.run(main())
