"""Production settings pass Django's deployment checks, and every response carries the security
headers."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest
from django.conf import settings
from rest_framework.test import APIClient

PRODUCTION = {
    "DEBUG": "false",
    "HTTPS": "true",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "pitboss.example.org",
}


def _check_deploy(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "HTTPS", "SECRET_KEY"}}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=settings.BASE_DIR,
        env=base | env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_under_production_settings() -> None:
    result = _check_deploy(PRODUCTION)

    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_flags_the_development_defaults() -> None:
    result = _check_deploy({"DEBUG": "true"})

    assert result.returncode != 0
    for check in ["security.W004", "security.W008", "security.W009", "security.W018"]:
        assert check in result.stderr


@pytest.mark.django_db
def test_every_response_carries_the_security_headers(anon_client: APIClient) -> None:
    for url in ["/api/v1/jurisdictions/", "/api/v1/no-such-thing/"]:
        response = anon_client.get(url)

        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Referrer-Policy"] == "same-origin"
        assert response["X-Frame-Options"] == "DENY"
        assert response["Cross-Origin-Opener-Policy"] == "same-origin"
