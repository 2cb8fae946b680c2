"""The Redis cache of the server processes (settings.CACHES when CACHE_URL names a Redis)."""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis


class RedisCacheClient(redis.RedisCacheClient):
    """Django's, keeping one redis-py client a connection pool where Django makes a new one at
    every cache call (a tenth of a millisecond of CPU each, two calls a throttled write, one a
    cached read). A redis-py client may be shared between threads: each command takes a
    connection from the pool."""

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        clients = self.__dict__.setdefault("_clients", {})
        client = clients.get(id(pool))
        if client is None:
            client = clients[id(pool)] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


class RedisCache(redis.RedisCache):
    """django.core.cache.backends.redis.RedisCache with pitboss.cache.RedisCacheClient."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
