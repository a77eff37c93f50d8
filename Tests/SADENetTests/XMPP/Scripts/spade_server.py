"""SPADE's embedded XMPP server (pyjabber, what `spade run` starts) for the interop tests,
on the given client port, in memory, without its HTTP pages.

  spade_server.py CLIENT_PORT SERVER_PORT
      prints "listening on CLIENT_PORT" once it takes connections; stops on SIGTERM.
"""
import asyncio
import multiprocessing
import os
import signal
import sys

from loguru import logger
from pyjabber.server import Server
from pyjabber.server_parameters import Parameters


def stop(*_):
    for child in multiprocessing.active_children():
        child.kill()
    os._exit(0)


async def main():
    client_port, server_port = int(sys.argv[1]), int(sys.argv[2])
    logger.remove()
    logger.add(sys.stderr, level="WARNING")
    # Every default plugin (in-band registration among them) but HTTP upload, which would serve pages on 9090.
    plugins = [plugin for plugin in Parameters().plugins if "http:upload" not in plugin]
    server = Server(Parameters(host="localhost", client_port=client_port, server_port=server_port,
                               database_in_memory=True, plugins=plugins))
    running = asyncio.create_task(server.start())
    await server.ready.wait()
    # pyjabber's worker processes share our output: SIGTERM ends them with us, so
    # whoever reads that output sees it close.
    signal.signal(signal.SIGTERM, stop)
    print(f"listening on {client_port}", flush=True)
    await running


if __name__ == "__main__":
    # The test process blocks SIGTERM in its threads, and a blocked mask survives exec:
    # without this, SIGTERM would never reach us.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    asyncio.run(main())
