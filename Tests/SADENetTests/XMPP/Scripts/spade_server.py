"""SPADE's embedded XMPP server (pyjabber, what `spade run` starts) for the interop tests,
on the given client port, in memory, without its HTTP pages.

  spade_server.py CLIENT_PORT SERVER_PORT
      prints "listening on CLIENT_PORT" once it takes connections; stops on SIGTERM.
"""
import asyncio
import sys

from loguru import logger
from pyjabber.server import Server
from pyjabber.server_parameters import Parameters


async def main():
    client_port, server_port = int(sys.argv[1]), int(sys.argv[2])
    logger.remove()
    logger.add(sys.stderr, level="WARNING")
    server = Server(Parameters(host="localhost", client_port=client_port, server_port=server_port,
                               database_in_memory=True, plugins=[]))
    running = asyncio.create_task(server.start())
    await server.ready.wait()
    print(f"listening on {client_port}", flush=True)
    await running


if __name__ == "__main__":
    asyncio.run(main())
