"""Fixtures for the micro-benchmarks: a real Broker on a temp dir, no sockets."""

from __future__ import annotations

import asyncio

import pytest


@pytest.fixture
def loop():
    lp = asyncio.new_event_loop()
    asyncio.set_event_loop(lp)
    yield lp
    lp.close()
    asyncio.set_event_loop(None)


@pytest.fixture
def broker(tmp_path, loop):
    from kwire.broker.broker import Broker
    from kwire.config import BrokerConfig

    cfg = BrokerConfig.load(None, {"log.dirs": str(tmp_path / "data"),
                                   "listeners": "PLAINTEXT://127.0.0.1:0"})

    async def make() -> Broker:  # the coordinators want a running loop
        b = Broker(cfg)
        b.start()
        b.create_topic("bench", 10)
        return b

    async def close(b: Broker) -> None:
        b.close()

    b = loop.run_until_complete(make())
    yield b
    loop.run_until_complete(close(b))
