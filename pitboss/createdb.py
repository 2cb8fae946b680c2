"""Create the PostgreSQL database a DATABASE_URL names, if it does not exist (for `make serve`).

python -m pitboss.createdb postgres://postgres@127.0.0.1:5432/pitboss
"""

from __future__ import annotations

import sys
from typing import Any

import dj_database_url
import psycopg
from psycopg import sql


def database_create(url: str) -> bool:
    """Create the database of `url` on its server; False if it was there already."""
    config = dj_database_url.parse(url)
    if "postgresql" not in config["ENGINE"]:
        raise SystemExit(f"{url} is not a PostgreSQL URL.")
    server: dict[str, Any] = {
        "host": config["HOST"] or "127.0.0.1",
        "port": config["PORT"] or 5432,
        "user": config["USER"] or "postgres",
        "password": config["PASSWORD"] or None,
        "dbname": "postgres",
    }
    with psycopg.connect(**server, autocommit=True, connect_timeout=5) as connection:
        name = config["NAME"]
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [name]
        ).fetchone()
        if exists:
            return False
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return True


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    created = database_create(sys.argv[1])
    print(f"database {'created' if created else 'exists'}: {sys.argv[1]}")
