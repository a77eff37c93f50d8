"""SPADE 4 agents for the XMPP interop tests: real SPADE, talking to SADE agents.

  spade_peer.py PORT echo JID PASSWORD
      an agent that answers every request with an inform of the same body (SPADE's
      make_reply: same thread and metadata); prints "ready" once online, runs until
      SIGTERM.
  spade_peer.py PORT request JID PASSWORD TO BODY [SECONDS]
      sends one FIPA request to TO and prints the reply as JSON
      {"body", "thread", "metadata", "sender"}; exit 1 if none comes.
"""
import asyncio
import json
import os
import signal
import sys

import spade
from spade.agent import Agent
from spade.behaviour import CyclicBehaviour, OneShotBehaviour
from spade.message import Message


class Echo(Agent):
    class Answer(CyclicBehaviour):
        async def run(self):
            msg = await self.receive(timeout=1)
            if msg is None:
                return
            reply = msg.make_reply()
            reply.set_metadata("performative", "inform")
            await self.send(reply)

    async def setup(self):
        self.presence.set_available()
        self.add_behaviour(self.Answer())


class Requester(Agent):
    def __init__(self, jid, password, port, to, body, seconds):
        super().__init__(jid, password, port=port)
        self.to, self.body, self.seconds, self.reply = to, body, seconds, None

    class Ask(OneShotBehaviour):
        async def run(self):
            agent = self.agent
            msg = Message(to=agent.to, body=agent.body, thread="spade-asks-1",
                          metadata={"performative": "request", "ontology": "interop", "language": "text",
                                    "protocol": "fipa-request", "reply-with": "spade-r1"})
            await self.send(msg)
            agent.reply = await self.receive(timeout=agent.seconds)

    async def setup(self):
        self.presence.set_available()
        self.add_behaviour(self.Ask())


async def start(agent):
    """Starts the agent; on failure says why and exits 1 (SPADE would only log it and go on)."""
    try:
        await agent.start(auto_register=True)
    except Exception as error:  # noqa: BLE001 — any failure to log in ends the peer
        print(json.dumps({"error": f"{type(error).__name__}: {error}"}), flush=True)
        os._exit(1)


async def main():
    port, mode, jid, password = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    asyncio.get_running_loop().call_later(150, os._exit, 2)  # a test's peer never outlives it
    if mode == "echo":
        agent = Echo(jid, password, port=port)
        await start(agent)
        print("ready", flush=True)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        await stop.wait()
        await agent.stop()
    elif mode == "request":
        to, body = sys.argv[5], sys.argv[6]
        seconds = float(sys.argv[7]) if len(sys.argv) > 7 else 10
        agent = Requester(jid, password, port, to, body, seconds)
        await start(agent)
        for behaviour in list(agent.behaviours):
            await behaviour.join()
        reply = agent.reply
        await agent.stop()
        if reply is None:
            print(json.dumps({"error": "no reply"}), flush=True)
            sys.exit(1)
        print(json.dumps({"body": reply.body, "thread": reply.thread, "metadata": dict(reply._metadata),
                          "sender": str(reply.sender)}), flush=True)


if __name__ == "__main__":
    # The test process blocks SIGTERM in its threads, and a blocked mask survives exec:
    # without this, SIGTERM would never reach us.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    spade.run(main())
