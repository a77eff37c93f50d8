"""SPADE's own XMPP server (pyjabber, what `spade run` starts) for the interop tests.

  spade_server.py CLIENT_PORT SERVER_PORT
      serves the domain `localhost` (on the addresses `localhost` has), accounts in
      ./pyjabber.db (made afresh), registration open; prints "listening CLIENT_PORT"
      once it accepts clients, or exits 1 with the reason when it cannot listen (a
      port taken meanwhile: the test tries others); runs until SIGTERM or SIGKILL to
      its process group.
"""
import asyncio
import os
import sys

from concurrent.futures import ThreadPoolExecutor

import pyjabber.http_server
import pyjabber.server
from loguru import logger
from pyjabber.server import Server
from pyjabber.server_parameters import Parameters
from pyjabber.network.protocols.XMLProtocol import XMLProtocol
from pyjabber.stream.negotiators.StreamNegotiator import StreamNegotiator

# pyjabber hashes passwords (PBKDF2, which releases the GIL) in a process pool whose
# workers it forks lazily from a process that already runs threads (aiosqlite's, the
# logger's); a fork taken while one of them holds a lock leaves the worker stuck, and
# every later login waits on it (sessions stalled at opening). Threads do the same work.
pyjabber.server.ProcessPoolExecutor = ThreadPoolExecutor


async def no_admin_page(self):
    """pyjabber would serve an admin page on port 9090, fixed: two servers would clash."""


pyjabber.http_server.HttpServer.start = no_admin_page

# pyjabber upgrades a stream to TLS with `await loop.start_tls(…)`, then points its
# parser at the new transport and empties the parser's stack. What the client sends
# as soon as the handshake is over (the restarted stream's header) can arrive before
# that continuation runs: it is parsed with the old state, answered on the old
# transport, then wiped, and the session stalls (its own SPADE clients hit it too, as
# "DisconnectedException", more often on a loaded machine). Bytes arriving during the
# upgrade are held and fed once pyjabber has finished with it.
upgrade_tls = StreamNegotiator._handle_tls
receive = XMLProtocol.data_received
holding = {}  # id(protocol) → the bytes held while its stream is upgraded


def data_received_unless_held(self, data):
    held = holding.get(id(self))
    if held is None:
        receive(self, data)
    else:
        held.append(data)


async def upgrade_tls_holding_early_data(self, element):
    protocol = self._protocol
    holding[id(protocol)] = []
    try:
        return await upgrade_tls(self, element)
    finally:
        def replay():
            for data in holding.pop(id(protocol), []):
                receive(protocol, data)
        # After this returns, pyjabber resets the parser once more (Signal.RESET);
        # the held bytes are fed in the loop's next turn, after that.
        asyncio.get_running_loop().call_soon(replay)


XMLProtocol.data_received = data_received_unless_held
StreamNegotiator._handle_tls = upgrade_tls_holding_early_data


async def main():
    client_port, server_port = int(sys.argv[1]), int(sys.argv[2])
    server = Server(Parameters(host="localhost", client_port=client_port, server_port=server_port,
                               # A file in the working directory, not memory: each new
                               # SQLite connection to ":memory:" is another, empty database,
                               # and pyjabber opens more under concurrent logins.
                               database_path=os.path.join(os.getcwd(), "pyjabber.db"), database_purge=True,
                               message_persistence=False))
    started = asyncio.ensure_future(server.start())
    ready = asyncio.ensure_future(server.ready.wait())
    await asyncio.wait({started, ready}, return_when=asyncio.FIRST_COMPLETED)
    if not ready.done():
        error = started.exception() if not started.cancelled() else None
        sys.exit(f"cannot listen: {error}")
    print(f"listening {client_port}", flush=True)
    await started


if __name__ == "__main__":
    logger.remove()
    logger.add(sys.stderr, level="WARNING")
    asyncio.run(main())
