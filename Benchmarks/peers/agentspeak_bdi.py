"""Peer of `sade bench --suite bdi`: python-agentspeak 0.2.2 (Jason-style AgentSpeak).

One agent, 10 goals (g0 … g9) with 3 plans each chosen by context (the goal's
mode belief), pursued N times in turn; each plan execution changes the mode so the
next time another plan applies. Prints one JSON line:
{"plans_per_s": …, "executions": N}.
Usage: python agentspeak_bdi.py [N]
"""
import json
import os
import sys
import tempfile
import time

import agentspeak
import agentspeak.runtime
import agentspeak.stdlib

GOALS, PLANS = 10, 3


def program(count: int) -> str:
    lines = [f"mode({g}, 0)." for g in range(GOALS)]
    lines.append(f"remaining({count}).")
    lines.append("!step.")
    # the driver: one goal execution per step, as a new intention (no deep stack)
    lines.append("+!step : remaining(0) <- .print(done).")
    lines.append("+!step : remaining(N) & N > 0 <- -+remaining(N - 1); !g(N mod 10); !!step.")
    for plan in range(PLANS):
        lines.append(f"+!g(G) : mode(G, {plan}) <- -+mode(G, {(plan + 1) % PLANS}).")
    return "\n".join(lines) + "\n"


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 30000
    with tempfile.NamedTemporaryFile("w", suffix=".asl", delete=False) as source:
        source.write(program(count))
        path = source.name
    try:
        env = agentspeak.runtime.Environment()
        with open(path) as source:
            env.build_agents(source, 1, agentspeak.stdlib.actions)
        # .print writes to stdout: keep our JSON the only line there
        real_stdout = sys.stdout
        sys.stdout = open(os.devnull, "w")
        start = time.perf_counter()
        env.run()
        seconds = time.perf_counter() - start
        sys.stdout = real_stdout
    finally:
        os.unlink(path)
    print(json.dumps({"plans_per_s": count / seconds, "executions": count}))


if __name__ == "__main__":
    main()
