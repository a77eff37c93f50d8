"""Peer of `sade bench --suite spawn`: SPADE 4.1.4 agents created, started (each logs
in to the embedded pyjabber XMPP server) and stopped.

Prints one JSON line: {"agents_per_s": …, "bytes_per_agent": …, "agents": N}, where
the memory is the resident-set growth while the N agents are started and idle.
Usage: python spade_spawn.py [N]
"""
import json
import sys
import time
import uuid

import spade
from spade.agent import Agent

RUN = uuid.uuid4().hex[:8]


def resident_bytes() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


class Idle(Agent):
    async def setup(self):
        pass


async def main(count: int) -> None:
    before = resident_bytes()
    start = time.perf_counter()
    agents = []
    for index in range(count):
        agent = Idle(f"idle{index}-{RUN}@localhost", "bench")
        await agent.start(auto_register=True)
        agents.append(agent)
    started = time.perf_counter()
    grown = resident_bytes() - before
    for agent in agents:
        await agent.stop()
    seconds = time.perf_counter() - start
    print(json.dumps({
        "agents_per_s": count / seconds, "start_s": (started - start) / count,
        "bytes_per_agent": grown / count, "agents": count,
    }), flush=True)


if __name__ == "__main__":
    spade.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 50), embedded_xmpp_server=True)
