"""SPADE 4 agents for the XMPP interop tests: real SPADE, talking to SADE agents.

Every agent approves presence subscriptions (SPADE's `approve_all`) unless --private
(then it approves none, so nobody sees its presence),
prints "ready" once online, and — for the ones that run until stopped — lines of JSON
saying what happened; they end on SIGTERM.

  spade_peer.py PORT echo JID PASSWORD
      answers every request with an inform of the same body (SPADE's make_reply: same
      thread and metadata).
  spade_peer.py PORT hold JID PASSWORD
      prints {"got": PERFORMATIVE, "body": …} for each message and never answers.
  spade_peer.py PORT bidder JID PASSWORD PRICE [--private] [--vanish]
      a Contract Net participant: a cfp is answered with a propose of PRICE; an
      accept-proposal with an inform "(done :price PRICE)" (or, with --vanish, the
      process ends at once, without a word); prints {"got": …} for each message.
  spade_peer.py PORT publisher JID PASSWORD COUNT
      FIPA Subscribe participant: a subscribe is answered agree, then COUNT informs
      "(tick I)"; a cancel is answered inform "(cancelled)".
  spade_peer.py PORT request JID PASSWORD TO BODY [SECONDS]
      sends one FIPA request to TO and prints the reply as JSON
      {"body", "thread", "metadata", "sender"}; exit 1 if none comes.
  spade_peer.py PORT initiator JID PASSWORD SECONDS TO…
      runs a Contract Net as initiator: a cfp "(job)" to each TO, proposals and
      refusals until all have answered or SECONDS pass, the lowest price accepted and
      the others rejected, the winner's result awaited; prints
      {"proposals": {jid: body}, "refusals": [jid], "winner": jid, "result": {…}}.
  spade_peer.py PORT subscriber JID PASSWORD TO COUNT [SECONDS]
      subscribes to TO, prints each message it gets as JSON, cancels after the agree
      and COUNT informs and prints the cancel's answer.
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


def say(**fields):
    print(json.dumps(fields), flush=True)


def described(msg):
    return {"performative": msg.get_metadata("performative"), "body": msg.body, "thread": msg.thread,
            "sender": str(msg.sender), "in-reply-to": msg.get_metadata("in-reply-to")}


def reply(msg, performative, body=None):
    """SPADE's make_reply, with FIPA's in-reply-to set from the message's reply-with."""
    answer = msg.make_reply()
    answer.set_metadata("performative", performative)
    if msg.get_metadata("reply-with"):
        answer.set_metadata("in-reply-to", msg.get_metadata("reply-with"))
    if body is not None:
        answer.body = body
    return answer


class Peer(Agent):
    """An agent whose behaviour answers each message with `answer(msg)`."""

    def __init__(self, jid, password, port, private=False):
        super().__init__(jid, password, port=port)
        self.private = private

    async def answer(self, behaviour, msg):
        pass

    class Loop(CyclicBehaviour):
        async def run(self):
            msg = await self.receive(timeout=1)
            if msg is not None:
                await self.agent.answer(self, msg)

    async def setup(self):
        self.presence.approve_all = not self.private
        self.client.auto_authorize = not self.private  # slixmpp's own approval, on by default
        self.presence.set_available()
        self.add_behaviour(self.Loop())


class Echo(Peer):
    async def answer(self, behaviour, msg):
        answer = msg.make_reply()
        answer.set_metadata("performative", "inform")
        await behaviour.send(answer)


class Hold(Peer):
    async def answer(self, behaviour, msg):
        say(got=msg.get_metadata("performative"), body=msg.body)


class Bidder(Peer):
    def __init__(self, jid, password, port, price, private, vanish):
        super().__init__(jid, password, port, private)
        self.price, self.vanish = price, vanish

    async def answer(self, behaviour, msg):
        performative = msg.get_metadata("performative")
        say(got=performative, body=msg.body, thread=msg.thread)
        if performative == "cfp":
            await behaviour.send(reply(msg, "propose", self.price))
        elif performative == "accept-proposal":
            if self.vanish:
                os._exit(0)
            await behaviour.send(reply(msg, "inform", f"(done :price {self.price})"))


class Publisher(Peer):
    def __init__(self, jid, password, port, count):
        super().__init__(jid, password, port)
        self.count = count

    async def answer(self, behaviour, msg):
        performative = msg.get_metadata("performative")
        say(got=performative, body=msg.body, thread=msg.thread)
        if performative == "subscribe":
            await behaviour.send(reply(msg, "agree"))
            for tick in range(1, self.count + 1):
                await behaviour.send(reply(msg, "inform", f"(tick {tick})"))
        elif performative == "cancel":
            await behaviour.send(reply(msg, "inform", "(cancelled)"))


class OneShot(Agent):
    """An agent that runs `conversation(behaviour)` once, then stops."""

    def __init__(self, jid, password, port, conversation):
        super().__init__(jid, password, port=port)
        self.conversation = conversation

    class Run(OneShotBehaviour):
        async def run(self):
            await self.agent.conversation(self)

    async def setup(self):
        self.presence.approve_all = True
        self.presence.set_available()
        self.add_behaviour(self.Run())


async def request(behaviour, to, body, seconds):
    msg = Message(to=to, body=body, thread="spade-asks-1",
                  metadata={"performative": "request", "ontology": "interop", "language": "text",
                            "protocol": "fipa-request", "reply-with": "spade-r1"})
    await behaviour.send(msg)
    answer = await behaviour.receive(timeout=seconds)
    if answer is None:
        say(error="no reply")
        os._exit(1)
    say(body=answer.body, thread=answer.thread, metadata=dict(answer._metadata), sender=str(answer.sender))


def price(msg):
    try:
        return float(msg.body)
    except (TypeError, ValueError):
        return float("inf")


async def initiate(behaviour, seconds, participants):
    loop = asyncio.get_running_loop()
    for index, to in enumerate(participants):
        await behaviour.send(Message(to=to, body="(job)", thread="spade-cnet-1", metadata={
            "performative": "cfp", "protocol": "fipa-contract-net", "ontology": "interop", "reply-with": f"cfp-{index}"}))
    proposals, refusals, waiting = {}, [], {to.split("/")[0] for to in participants}
    deadline = loop.time() + seconds
    while waiting and loop.time() < deadline:
        msg = await behaviour.receive(timeout=max(0.01, deadline - loop.time()))
        if msg is None:
            break
        sender = str(msg.sender).split("/")[0]
        waiting.discard(sender)
        if msg.get_metadata("performative") == "propose":
            proposals[sender] = msg
        elif msg.get_metadata("performative") == "refuse":
            refusals.append(sender)
    result = None
    winner = min(proposals, key=lambda jid: price(proposals[jid])) if proposals else None
    for jid, proposal in proposals.items():
        await behaviour.send(reply(proposal, "accept-proposal" if jid == winner else "reject-proposal", proposal.body))
    if winner:
        answer = await behaviour.receive(timeout=seconds)
        result = described(answer) if answer else None
    say(proposals={jid: msg.body for jid, msg in proposals.items()}, refusals=sorted(refusals), unanswered=sorted(waiting),
        winner=winner, result=result)


async def subscribe(behaviour, to, count, seconds):
    await behaviour.send(Message(to=to, body="(ticks)", thread="spade-sub-1", metadata={
        "performative": "subscribe", "protocol": "fipa-subscribe", "reply-with": "sub-1"}))
    informs = 0
    while informs < count:
        msg = await behaviour.receive(timeout=seconds)
        if msg is None:
            say(error="no message")
            os._exit(1)
        say(**described(msg))
        if msg.get_metadata("performative") == "inform":
            informs += 1
        elif msg.get_metadata("performative") != "agree":
            os._exit(1)
    await behaviour.send(Message(to=to, body="(ticks)", thread="spade-sub-1", metadata={
        "performative": "cancel", "protocol": "fipa-subscribe", "reply-with": "cancel-1"}))
    msg = await behaviour.receive(timeout=seconds)
    say(cancelled=described(msg) if msg else None)


async def start(agent):
    """Starts the agent; on failure says why and exits 1 (SPADE would only log it and go on)."""
    try:
        await agent.start(auto_register=True)
    except Exception as error:  # noqa: BLE001 — any failure to log in ends the peer
        say(error=f"{type(error).__name__}: {error}")
        os._exit(1)


async def until_stopped(agent):
    await start(agent)
    print("ready", flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    await agent.stop()


async def once(agent):
    await start(agent)
    print("ready", flush=True)
    for behaviour in list(agent.behaviours):
        await behaviour.join()
    await agent.stop()


async def main():
    port, mode, jid, password, rest = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
    flags = {argument for argument in rest if argument.startswith("--")}
    rest = [argument for argument in rest if not argument.startswith("--")]
    if mode == "echo":
        await until_stopped(Echo(jid, password, port))
    elif mode == "hold":
        await until_stopped(Hold(jid, password, port))
    elif mode == "bidder":
        await until_stopped(Bidder(jid, password, port, rest[0], "--private" in flags, "--vanish" in flags))
    elif mode == "publisher":
        await until_stopped(Publisher(jid, password, port, int(rest[0])))
    elif mode == "request":
        seconds = float(rest[2]) if len(rest) > 2 else 10
        await once(OneShot(jid, password, port, lambda behaviour: request(behaviour, rest[0], rest[1], seconds)))
    elif mode == "initiator":
        await once(OneShot(jid, password, port, lambda behaviour: initiate(behaviour, float(rest[0]), rest[1:])))
    elif mode == "subscriber":
        seconds = float(rest[2]) if len(rest) > 2 else 10
        await once(OneShot(jid, password, port, lambda behaviour: subscribe(behaviour, rest[0], int(rest[1]), seconds)))
    else:
        sys.exit(f"unknown mode {mode}")


if __name__ == "__main__":
    spade.run(main())
