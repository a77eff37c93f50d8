"""python-zeroconf, an independent mDNS/DNS-SD implementation, against SADE's.

    zeroconf_peer.py resolve NAME TIMEOUT   finds NAME._sade._tcp.local. and prints it as JSON
    zeroconf_peer.py publish NAME PORT      publishes NAME._sade._tcp.local. until SIGTERM
"""
import json
import signal
import socket
import sys
import time

from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, ServiceListener, Zeroconf

SERVICE = "_sade._tcp.local."


def resolve(name, timeout):
    zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    seen = []

    class Listener(ServiceListener):
        def add_service(self, zc, type_, instance):
            seen.append(instance)

        def update_service(self, zc, type_, instance):
            pass

        def remove_service(self, zc, type_, instance):
            pass

    browser = ServiceBrowser(zc, SERVICE, Listener())
    deadline = time.monotonic() + timeout
    wanted = f"{name}.{SERVICE}"
    while time.monotonic() < deadline and wanted not in seen:
        time.sleep(0.05)
    info = zc.get_service_info(SERVICE, wanted, timeout=int(max(deadline - time.monotonic(), 0.5) * 1000))
    browser.cancel()
    zc.close()
    if info is None:
        print(json.dumps({"browsed": seen, "resolved": None}))
        return 1
    properties = {k.decode(): (v.decode() if v is not None else None) for k, v in info.properties.items()}
    print(json.dumps({
        "browsed": seen,
        "resolved": {
            "name": info.name, "port": info.port, "server": info.server,
            "addresses": [socket.inet_ntoa(a) for a in info.addresses], "properties": properties,
        },
    }))
    return 0


def publish(name, port):
    zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    info = ServiceInfo(
        SERVICE, f"{name}.{SERVICE}", port=port, addresses=[socket.inet_aton("127.0.0.1")],
        properties={"platform": name, "version": "1", "services": "python-echo"}, server=f"{name}-py.local.")
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    zc.register_service(info)
    print("published", flush=True)
    while not stopping:
        time.sleep(0.1)
    zc.unregister_service(info)
    zc.close()
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "resolve":
        sys.exit(resolve(sys.argv[2], float(sys.argv[3])))
    sys.exit(publish(sys.argv[2], int(sys.argv[3])))
