"""A QUIC server of aioquic that offers the given ALPN and nothing else, for the generator's refusal tests.

    python3 quic_server.py --cert cert.pem --key key.pem --alpn hq-interop

Binds 127.0.0.1 on a UDP port of the system's choosing, prints "READY port=P" once it listens, and serves until it is
killed (or 60 s pass: it ends by itself). A client offering only h3 gets the handshake refused with TLS's
no_application_protocol alert.
"""

import argparse
import asyncio

from aioquic.asyncio import serve
from aioquic.quic.configuration import QuicConfiguration

LIFETIME_S = 60


async def main(arguments):
    configuration = QuicConfiguration(is_client=False, alpn_protocols=[arguments.alpn])
    configuration.load_cert_chain(arguments.cert, arguments.key)
    server = await serve("127.0.0.1", 0, configuration=configuration)
    port = server._transport.get_extra_info("sockname")[1]
    print(f"READY port={port}", flush=True)
    await asyncio.sleep(LIFETIME_S)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--alpn", required=True)
    asyncio.run(main(parser.parse_args()))
