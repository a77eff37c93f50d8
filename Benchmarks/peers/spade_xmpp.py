"""Peer of `sade bench --suite xmpp`: SPADE 4.1.4 agents on the bench's XMPP server.

  spade_xmpp.py echo PORT JID
      answers every request with an inform of the same body; prints "ready" once
      online; runs until killed (at most 15 minutes).
  spade_xmpp.py ping PORT JID TO ROUND_TRIPS
      ROUND_TRIPS request/inform round trips to TO, one at a time, after 20 unmeasured;
      prints one JSON line {"p50_us", "p99_us", "round_trips_per_s"}.

Each agent is a process of its own, so every message goes through the server (SPADE
delivers between agents of one process directly). Accounts are registered in band.
"""
import asyncio
import json
import os
import signal
import sys
import time

import spade
from spade.agent import Agent
from spade.behaviour import OneShotBehaviour
from spade.message import Message
from spade_pingpong import Ponger  # beside this file

PASSWORD = "bench"


class Echo(Ponger):
    """The pingpong suite's ponger, online for the SADE agents that write to it."""

    async def setup(self):
        self.presence.approve_all = True
        self.presence.set_available()
        await super().setup()


class Pinger(Agent):
    def __init__(self, jid, port, peer, round_trips):
        super().__init__(jid, PASSWORD, port=port)
        self.peer, self.round_trips, self.latencies, self.seconds = peer, round_trips, [], 0.0

    class Play(OneShotBehaviour):
        async def run(self):
            agent = self.agent
            for index in range(20 + agent.round_trips):
                request = Message(to=agent.peer, body="ping", thread=f"bench-{index}",
                                  metadata={"performative": "request", "reply-with": f"r{index}"})
                start = time.perf_counter()
                await self.send(request)
                reply = await self.receive(timeout=30)
                if reply is None:
                    print(json.dumps({"error": f"no inform within 30 s (round trip {index})"}), flush=True)
                    os._exit(1)
                if index == 20:
                    agent.started = start
                if index >= 20:
                    agent.latencies.append((time.perf_counter() - start) * 1e6)
            agent.seconds = time.perf_counter() - agent.started

    async def setup(self):
        self.presence.approve_all = True
        self.presence.set_available()
        self.add_behaviour(self.Play())


async def main():
    mode, port, jid = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    asyncio.get_running_loop().call_later(900, os._exit, 2)
    if mode == "echo":
        agent = Echo(jid, PASSWORD, port=port)
        await agent.start(auto_register=True)
        print("ready", flush=True)
        await asyncio.Event().wait()
    else:
        agent = Pinger(jid, port, sys.argv[4], int(sys.argv[5]))
        await agent.start(auto_register=True)
        for behaviour in list(agent.behaviours):
            await behaviour.join()
        await agent.stop()
        latencies = sorted(agent.latencies)
        if not latencies:
            sys.exit("no round trip completed")
        print(json.dumps({"p50_us": latencies[len(latencies) // 2],
                          "p99_us": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
                          "round_trips_per_s": len(latencies) / agent.seconds}), flush=True)


if __name__ == "__main__":
    # A blocked SIGTERM survives exec; unblocked, the bench can stop us either way.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    spade.run(main())
