"""Peer of `sade bench --suite pingpong`: SPADE 4.1.4 (XMPP, embedded pyjabber server).

P pinger/ponger pairs in one process; each pinger sends a request and awaits the
ponger's inform, R times. Agents in one process exchange messages directly, but each
still logs in to the XMPP server when it starts. Prints one JSON line:
{"messages_per_s": …, "p50_us": …, "p99_us": …, "pairs": P, "round_trips": R}.
Usage: python spade_pingpong.py [PAIRS] [ROUND_TRIPS]
"""
import asyncio
import json
import sys
import time
import uuid

import spade
from spade.agent import Agent
from spade.behaviour import CyclicBehaviour, OneShotBehaviour
from spade.message import Message

RUN = uuid.uuid4().hex[:8]  # the server drops messages to reused names
PASSWORD = "bench"


class Ponger(Agent):
    class Answer(CyclicBehaviour):
        async def run(self):
            request = await self.receive(timeout=10)
            if request is not None:
                reply = request.make_reply()
                reply.set_metadata("performative", "inform")
                await self.send(reply)

    async def setup(self):
        self.add_behaviour(self.Answer())


class Pinger(Agent):
    def __init__(self, jid, peer, round_trips, ready):
        super().__init__(jid, PASSWORD)
        self.peer, self.round_trips, self.ready = peer, round_trips, ready
        self.latencies = []
        self.finished = asyncio.Event()

    class Play(OneShotBehaviour):
        async def run(self):
            agent = self.agent
            await agent.ready.wait()
            for _ in range(agent.round_trips):
                request = Message(to=agent.peer)
                request.set_metadata("performative", "request")
                request.body = "ping"
                start = time.perf_counter()
                await self.send(request)
                reply = await self.receive(timeout=10)
                if reply is None:
                    raise RuntimeError("no inform within 10 s")
                agent.latencies.append((time.perf_counter() - start) * 1e6)
            agent.finished.set()

    async def setup(self):
        self.add_behaviour(self.Play())


async def main(pairs: int, round_trips: int) -> None:
    ready = asyncio.Event()
    pingers, agents = [], []
    for pair in range(pairs):
        ponger_jid = f"pong{pair}-{RUN}@localhost"
        ponger = Ponger(ponger_jid, PASSWORD)
        pinger = Pinger(f"ping{pair}-{RUN}@localhost", ponger_jid, round_trips, ready)
        await ponger.start(auto_register=True)
        await pinger.start(auto_register=True)
        pingers.append(pinger)
        agents += [pinger, ponger]
    start = time.perf_counter()
    ready.set()
    for pinger in pingers:
        await asyncio.wait_for(pinger.finished.wait(), timeout=600)
    seconds = time.perf_counter() - start
    latencies = sorted(l for p in pingers for l in p.latencies)
    for agent in agents:
        await agent.stop()
    print(json.dumps({
        "messages_per_s": 2 * pairs * round_trips / seconds,
        "p50_us": latencies[len(latencies) // 2],
        "p99_us": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        "pairs": pairs, "round_trips": round_trips,
    }), flush=True)


if __name__ == "__main__":
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    round_trips = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
    spade.run(main(pairs, round_trips), embedded_xmpp_server=True)
