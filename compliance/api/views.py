"""The compliance API's views, by area: validations.py, signage.py, rounds.py (rounds and the
base-game analysis), simulations.py, impact.py, watch.py (subscriptions, changes recorded); the
answers in serializers.py, who may call in permissions.py. compliance/api/urls.py routes to the
views named here."""

from __future__ import annotations

from .impact import ImpactApi, ImpactJobApi
from .rounds import BaseGameAnalysisApi, RoundReplayApi, RoundsApi
from .signage import SignageApi, SignSetApi
from .simulations import (
    PaytableSimulationDetailApi,
    PaytableSimulationListApi,
    SimulationDetailApi,
    SimulationListApi,
)
from .validations import (
    FindingCodesApi,
    ValidationDecisionApi,
    ValidationDetailApi,
    ValidationListApi,
    ValidationPacketApi,
)
from .watch import (
    RecordedChangeDetailApi,
    RecordedChangeListApi,
    SubscriptionDeliveriesApi,
    SubscriptionDetailApi,
    SubscriptionListApi,
)

__all__ = [
    "BaseGameAnalysisApi",
    "FindingCodesApi",
    "ImpactApi",
    "ImpactJobApi",
    "PaytableSimulationDetailApi",
    "PaytableSimulationListApi",
    "RecordedChangeDetailApi",
    "RecordedChangeListApi",
    "RoundReplayApi",
    "RoundsApi",
    "SignSetApi",
    "SignageApi",
    "SimulationDetailApi",
    "SimulationListApi",
    "SubscriptionDeliveriesApi",
    "SubscriptionDetailApi",
    "SubscriptionListApi",
    "ValidationDecisionApi",
    "ValidationDetailApi",
    "ValidationListApi",
    "ValidationPacketApi",
]
