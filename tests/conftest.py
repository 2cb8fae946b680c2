"""Shared actors: an anonymous visitor, an officer and a vendor, each with an API client."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import global_settings, settings
from django.contrib.auth.models import User
from django.core.cache import cache
from pytest_django import Settings
from rest_framework.test import APIClient

from jurisdictions.services import api_user_create
from pitboss import kbcache

from . import knowledge_base


def _token_client(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
    return client


@pytest.fixture(autouse=True)
def fast_and_unthrottled(settings: Settings) -> None:
    """The suite posts hundreds of requests as one vendor: no write throttle (tests/test_limits.py
    sets one), and no counts left from an earlier test. Passwords hash fast."""
    settings.WRITE_RATE = ""
    # A job's tasks run in the request that starts it, so a test reads the result as soon as it
    # has asked (tests/test_background.py and a browser test run them in the worker thread).
    settings.BACKGROUND_TASKS = False
    # MD5 first (fast); the defaults after it, for users a session fixture made before this
    # override (the browser tests' officer and vendor) to log in still.
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        *global_settings.PASSWORD_HASHERS,
    ]
    cache.clear()
    kbcache.forget()


@pytest.fixture
def anon_client() -> APIClient:
    return APIClient()


@pytest.fixture
def officer(db: None) -> User:
    """Olivia, a compliance officer."""
    user, _ = api_user_create(username="olivia", password="correct-horse-battery", officer=True)
    return user


@pytest.fixture
def officer_client(officer: User) -> APIClient:
    return _token_client(officer)


@pytest.fixture
def vendor(db: None) -> User:
    """Victor, a game vendor with an API token and no permissions."""
    user, _ = api_user_create(username="victor")
    return user


@pytest.fixture
def vendor_client(vendor: User) -> APIClient:
    return _token_client(vendor)


# The database the settings name (the developer's own), before any test database replaces it.
_MAIN_DATABASE = settings.DATABASES["default"]["NAME"]


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """The test database holds the shipped knowledge base, loaded by the real ingester once per
    state of its inputs and copied after (tests/knowledge_base.py).

    pytest-django creates the test database only when a collected test asks for the `db`
    fixture; browser tests alone ask for none (their live server commits), so then it is created
    here: the knowledge base is never loaded into the developer's own database.
    """
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    with django_db_blocker.unblock():
        own = None
        if connection.settings_dict["NAME"] == _MAIN_DATABASE:
            own = setup_databases(verbosity=0, interactive=False, aliases={"default"})
        knowledge_base.load_into(connection)
    yield
    if own is not None:
        with django_db_blocker.unblock():
            teardown_databases(own, verbosity=0)


@pytest.fixture
def knowledge_base_restored(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """The test database open to the test with every write committed at once, as a separate
    process (a Celery worker) must see it, and put back as loaded afterwards from
    tests/knowledge_base.py's copy (what the test wrote, the knowledge base included, goes), so
    the tests after it read the shipped rules. For a test with no `django_db` mark."""
    from django.db import connection

    with django_db_blocker.unblock():
        yield
        knowledge_base.load_into(connection)
    kbcache.forget()


# What each costly module costs, as pytest markers (pyproject.toml lists them; `make test-fast`
# leaves out all but postgres): browser (a real chromium), fuzz (schemathesis, the poison test),
# worker (starts a server, a Celery worker or a PostgreSQL cluster of its own), slow (a module
# whose tests take more than a few seconds each here).
SLOW_MODULES = (
    # Modules with a test of 9 s or more in a parallel run here (pytest --durations=60, 2026-11-28).
    "variants/test_catalog.py",
    "compliance/test_validations.py",
    "compliance/test_access.py",
    "engine/test_basegame.py",
    "engine/test_basegame_double_up.py",
    "engine/test_basegame_face_up.py",
    "engine/test_playtree_removal.py",
    "engine/test_simulate.py",
    "engine/test_streak.py",
    "regs/test_date_notes_inventory.py",
    "regs/test_date_note_placement.py",
    "regs/test_ingest.py",
    "regs/test_ingest_hostile.py",
    "regs/test_pdf_reader.py",
    "regs/test_source_forms.py",
    "variants/test_par_sheet.py",
    "test_backups.py",
)

# The costliest modules, costliest first (test time summed per module, SQLite and PostgreSQL runs
# of `make test`, 2026-11-29): run first, so that with `--dist loadfile` (and xdist's own reorder,
# by number of tests, turned off: --no-loadscope-reorder in the Makefile) no long module is left
# for the end of a run with one worker busy and the other idle (test_poison.py, one test of 80 s
# or more, came last).
COSTLIEST_FIRST = (
    "compliance/test_validations.py",
    "engine/test_basegame_double_up.py",
    "test_poison.py",
    "test_backups.py",
    "compliance/test_access.py",
    "regs/test_date_notes_inventory.py",
    "variants/test_catalog.py",
    "engine/test_simulate.py",
    "engine/test_basegame.py",
    "engine/test_basegame_spanish.py",
    "engine/test_streak.py",
    "regs/test_ingest.py",
    "regs/test_pdf_reader.py",
    "engine/test_playtree_removal.py",
    "regs/test_source_forms.py",
    "regs/test_ingest_hostile.py",
    "engine/test_basegame_face_up.py",
    "compliance/test_simulation_worker.py",
    "compliance/test_rounds.py",
    "engine/test_analysis.py",
    "compliance/test_pages.py",
    "variants/test_review.py",
    "compliance/test_simulation_faults.py",
    "variants/test_par_sheet.py",
)

MODULE_MARKS = {
    "browser/": ("browser",),
    "test_api_schema_fuzz.py": ("fuzz",),
    "test_poison.py": ("fuzz",),
    "compliance/test_simulation_worker.py": ("worker",),
    "compliance/test_simulation_faults.py": ("worker",),
    "compliance/test_watch_worker.py": ("worker",),
    "test_slow_clients.py": ("worker",),
    "test_throttle_shared.py": ("worker",),
    "test_database_faults.py": ("worker",),
}


# What makes a test a database test (the `database` mark): a fixture that opens the test database
# to it, or a mark of a test that starts processes of its own, which reach the database by
# DATABASE_URL where pytest-django cannot block them. (django_db_blocker is among every test's
# fixtures, pytest-django's own; a module that unblocks it names it, so DATABASE_WORDS has it.)
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
    "admin_user",
    "admin_client",
}
DATABASE_MARKS = ("django_db", "worker", "postgres", "browser")
DATABASE_WORDS = ("DATABASE_URL", "connection", "DATABASES", "django_db_blocker")


def _uses_database(item: pytest.Item, module_text: dict[str, str]) -> bool:
    """Whether the test can reach the database. pytest-django refuses the database to a test with
    none of DATABASE_FIXTURES and no django_db mark, so such a test gives the same answer on
    SQLite and PostgreSQL; one whose module names the connection or DATABASE_URL is counted in,
    whatever its fixtures, to be safe."""
    if any(item.get_closest_marker(mark) for mark in DATABASE_MARKS):
        return True
    if DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    path = str(item.path)
    if path not in module_text:
        module_text[path] = item.path.read_text(encoding="utf-8")
    return any(word in module_text[path] for word in DATABASE_WORDS)


@pytest.hookimpl(tryfirst=True)  # marked before `-m` selects by marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test marked by what its module costs (MODULE_MARKS, SLOW_MODULES) and whether it uses
    the database (`database`: the PostgreSQL run of `make test` repeats only those; a test without
    it answers the same on either database and runs once, on SQLite); browser tests last: their
    live server commits what the browser does, which the transaction-wrapped tests must not see
    (`make test` also runs them in a pytest run of their own, beside the others). In an xdist
    worker the costliest modules then go first (_CostliestFirst)."""
    module_text: dict[str, str] = {}
    for item in items:
        path = str(item.path)
        for module, marks in MODULE_MARKS.items():
            if f"/tests/{module}" in path:
                for mark in marks:
                    item.add_marker(mark)
        if any(path.endswith(f"/tests/{module}") for module in SLOW_MODULES):
            item.add_marker("slow")
        if _uses_database(item, module_text):
            item.add_marker("database")
    browser = [item for item in items if "/tests/browser/" in str(item.path)]
    items[:] = [item for item in items if item not in browser] + browser


class _CostliestFirst:
    """In an xdist worker, the modules of COSTLIEST_FIRST first, in its order; each module's
    tests, and the other modules, in the order they had. After every other reordering
    (pytest-django's puts the tests using the database first, across modules): with
    `--dist loadfile` a worker runs a module's tests in their order, one module after another,
    so only the order of the modules changes, and the order the modules are handed out in is
    the order of their first tests here."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        rank = {f"/tests/{module}": i for i, module in enumerate(COSTLIEST_FIRST)}

        def cost(item: pytest.Item) -> int:
            path = str(item.path)
            return next((i for module, i in rank.items() if path.endswith(module)), len(rank))

        first: dict[str, int] = {}
        for index, item in enumerate(items):
            first.setdefault(str(item.path), index)
        items.sort(key=lambda item: (cost(item), first[str(item.path)]))


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):  # an xdist worker
        config.pluginmanager.register(_CostliestFirst(), "costliest-first")
