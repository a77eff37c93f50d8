"""Sends malformed and hostile mDNS packets to the group, then a flood: what a platform must survive.

    hostile_mdns.py FLOOD_COUNT
"""
import socket
import struct
import sys

GROUP = ("224.0.0.251", 5353)


def header(answers):
    return struct.pack(">HHHHHH", 0, 0x8400, 0, answers, 0, 0)


SERVICE = b"\x05_sade\x04_tcp\x05local\x00"
packets = [
    header(1) + b"\xc0\x0c" + struct.pack(">HHIH", 12, 1, 120, 2) + b"\xc0\x0c",  # a pointer to itself
    header(1) + SERVICE + struct.pack(">HHIH", 12, 1, 120, 2) + b"\xc0\x50",  # a pointer forwards
    header(200) + SERVICE,  # more answers than bytes
    header(1) + SERVICE + struct.pack(">HHIH", 12, 1, 120, 40) + b"\x04beta",  # cut inside the record
    header(1) + SERVICE + struct.pack(">HHIH", 16, 1, 120, 2) + b"\x09a",  # a TXT string past its record
    header(1) + b"\x3f" + b"a" * 63 + b"\x3f" + b"b" * 63 + b"\x3f" + b"c" * 63 + b"\x3f" + b"d" * 63 + b"\x00",  # a name past 255 bytes
    b"\x00" * 3,  # not even a header
    header(1) + SERVICE + struct.pack(">HHIH", 16, 1, 120, 8000) + b"\x7f" * 8000,  # a huge TXT record
]
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 255)
for packet in packets:
    sock.sendto(packet, GROUP)
for _ in range(int(sys.argv[1])):
    sock.sendto(packets[0], GROUP)
print(f"sent {len(packets)} malformed packets and a flood of {sys.argv[1]}", flush=True)
