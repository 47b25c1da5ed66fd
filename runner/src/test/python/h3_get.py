"""GET a path over HTTP/3 with aioquic, a QUIC and HTTP/3 stack that is not Gauntlet's, for the contract tests.

    python3 h3_get.py --port 8443 --cacert cert.pem --path /hello --path '/hello?wait=100' [--streams 50] [--host 127.0.0.1]

On one QUIC connection (ALPN h3, the server's certificate checked against --cacert and the host), GETs each --path in
turn, each one --streams times at once, and prints one line a response, in the order they were sent:
"<status> <ms> <body>", ms the time from the request's send to its last byte. A connection that cannot be made, or a
response that does not come in 10 s, is one line on stderr and exit code 1.
"""

import argparse
import asyncio
import ssl
import sys

from aioquic.asyncio.client import connect
from aioquic.asyncio.protocol import QuicConnectionProtocol
from aioquic.h3.connection import H3_ALPN, H3Connection
from aioquic.h3.events import DataReceived, HeadersReceived
from aioquic.quic.configuration import QuicConfiguration

TIMEOUT_S = 10


class Http3Client(QuicConnectionProtocol):
    """Requests on one connection, each answered on its own stream."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._http = H3Connection(self._quic)
        self._answers = {}

    async def get(self, authority, path):
        stream_id = self._quic.get_next_available_stream_id()
        self._http.send_headers(stream_id, [
            (b":method", b"GET"), (b":scheme", b"https"), (b":authority", authority.encode()),
            (b":path", path.encode()), (b"user-agent", b"h3_get.py aioquic")], end_stream=True)
        loop = asyncio.get_running_loop()
        answer = {"status": None, "body": b"", "done": loop.create_future()}
        self._answers[stream_id] = answer
        sent = loop.time()
        self.transmit()
        await answer["done"]
        return answer["status"], round((loop.time() - sent) * 1000), answer["body"].decode("utf-8", "replace")

    def quic_event_received(self, event):
        for http_event in self._http.handle_event(event):
            answer = self._answers.get(getattr(http_event, "stream_id", None))
            if answer is None:
                continue
            if isinstance(http_event, HeadersReceived):
                answer["status"] = int(dict(http_event.headers)[b":status"])
            elif isinstance(http_event, DataReceived):
                answer["body"] += http_event.data
            if http_event.stream_ended and not answer["done"].done():
                answer["done"].set_result(None)


async def main(arguments):
    configuration = QuicConfiguration(is_client=True, alpn_protocols=H3_ALPN, server_name=arguments.host)
    configuration.load_verify_locations(arguments.cacert)
    configuration.verify_mode = ssl.CERT_REQUIRED
    async with connect(arguments.host, arguments.port, configuration=configuration,
                       create_protocol=Http3Client, wait_connected=True) as client:
        authority = f"{arguments.host}:{arguments.port}"
        answers = []
        for path in arguments.path:
            answers += await asyncio.gather(*[client.get(authority, path) for _ in range(arguments.streams)])
    for status, ms, body in answers:
        print(status, ms, body)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--cacert", required=True)
    parser.add_argument("--path", action="append", required=True)
    parser.add_argument("--streams", type=int, default=1)
    given = parser.parse_args()
    try:
        asyncio.run(asyncio.wait_for(main(given), TIMEOUT_S))
    except (asyncio.TimeoutError, ConnectionError, OSError) as e:
        print(f"h3_get.py: no HTTP/3 answer from {given.host}:{given.port} within {TIMEOUT_S} s: {e!r}", file=sys.stderr)
        sys.exit(1)
