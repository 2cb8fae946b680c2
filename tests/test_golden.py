"""The golden dump's normaliser (benchmarks/golden.py): volatile values become placeholders, the
rest stays, and normalising twice changes nothing. The full dump is run by hand, not here."""

from benchmarks.golden import stable

SAMPLE = {
    "id": "0b6f1c2e-4f1a-4c55-9a7e-2f0c7d7b8e11",
    "created_at": "2026-11-28T20:01:22.123456Z",
    "compliant": False,
    "message": "run 0b6f1c2e-4f1a-4c55-9a7e-2f0c7d7b8e11 at 2026-11-28T20:01:22+00:00",
    "findings": [{"code": "insurance", "as_of": "2024-06-01", "edge": 0.0123}],
}


def test_stable_replaces_volatile_values_and_keeps_the_rest() -> None:
    out = stable(SAMPLE)
    assert out["id"] == "<volatile>" and out["created_at"] == "<volatile>"
    assert out["message"] == "run <uuid> at <timestamp>"
    assert out["findings"] == SAMPLE["findings"] and out["compliant"] is False
    assert list(out) == sorted(SAMPLE)


def test_stable_is_idempotent() -> None:
    assert stable(stable(SAMPLE)) == stable(SAMPLE)
