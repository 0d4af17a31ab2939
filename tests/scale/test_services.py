"""The throwaway PostgreSQL and Redis servers work with the drivers the server uses."""

from __future__ import annotations

import asyncio
import uuid

import redis
import redis.asyncio
import sqlalchemy


def test_postgres_answers_and_makes_a_fresh_database(postgres_url: str) -> None:
    url = sqlalchemy.make_url(postgres_url)
    assert url.host == "127.0.0.1"
    name = f"smoke_{uuid.uuid4().hex[:12]}"
    admin = sqlalchemy.create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            assert connection.execute(sqlalchemy.text("SELECT 1")).scalar_one() == 1
            connection.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
        engine = sqlalchemy.create_engine(url.set(database=name))
        try:
            with engine.begin() as connection:
                connection.execute(
                    sqlalchemy.text("CREATE TABLE seats (id serial PRIMARY KEY, name text)")
                )
                connection.execute(
                    sqlalchemy.text("INSERT INTO seats (name) VALUES (:name)"), {"name": "♥ north"}
                )
            with engine.connect() as connection:
                names = connection.execute(sqlalchemy.text("SELECT name FROM seats")).scalars()
                assert list(names) == ["♥ north"]
        finally:
            engine.dispose()
        with admin.connect() as connection:
            connection.execute(sqlalchemy.text(f'DROP DATABASE "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


def test_redis_sets_and_gets(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    try:
        assert client.ping()
        key = f"smoke:{uuid.uuid4().hex}"
        client.set(key, "♥", ex=60)
        assert client.get(key) == "♥".encode()
    finally:
        client.close()


def test_redis_pub_sub_round_trip(redis_url: str) -> None:
    async def round_trip() -> dict[str, object]:
        channel = f"table:{uuid.uuid4().hex}"
        subscriber = redis.asyncio.Redis.from_url(redis_url, decode_responses=True)
        publisher = redis.asyncio.Redis.from_url(redis_url, decode_responses=True)
        try:
            async with subscriber.pubsub() as pubsub:
                await pubsub.subscribe(channel)
                confirmation = await pubsub.get_message(timeout=5)
                assert confirmation is not None and confirmation["type"] == "subscribe"
                assert await publisher.publish(channel, "move 1") == 1
                message = None
                async with asyncio.timeout(5):
                    while message is None:
                        message = await pubsub.get_message(
                            ignore_subscribe_messages=True, timeout=1
                        )
                return message
        finally:
            await subscriber.aclose()
            await publisher.aclose()

    message = asyncio.run(round_trip())
    assert message["type"] == "message"
    assert message["data"] == "move 1"
