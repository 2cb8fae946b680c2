"""The compliance API's URLs; see pitboss/urls.py."""

from __future__ import annotations

from django.urls import path

from compliance.api import views

urlpatterns = [
    path("validations/", views.ValidationListApi.as_view(), name="validations"),
    path("validations/codes/", views.FindingCodesApi.as_view(), name="finding-codes"),
    path("validations/<uuid:pk>/", views.ValidationDetailApi.as_view(), name="validation"),
    path(
        "validations/<uuid:pk>/packet/",
        views.ValidationPacketApi.as_view(),
        name="validation-packet",
    ),
    path(
        "validations/<uuid:pk>/decision/",
        views.ValidationDecisionApi.as_view(),
        name="validation-decision",
    ),
    path("signage/", views.SignageApi.as_view(), name="signage"),
    path("signage/<uuid:pk>/", views.SignSetApi.as_view(), name="sign-set"),
    path("impact/", views.ImpactApi.as_view(), name="impact"),
    path("impact/jobs/<uuid:pk>/", views.ImpactJobApi.as_view(), name="impact-job"),
    path("impact/changes/", views.RecordedChangeListApi.as_view(), name="impact-changes"),
    path(
        "impact/changes/<uuid:pk>/",
        views.RecordedChangeDetailApi.as_view(),
        name="impact-change",
    ),
    path("subscriptions/", views.SubscriptionListApi.as_view(), name="subscriptions"),
    path("subscriptions/<int:pk>/", views.SubscriptionDetailApi.as_view(), name="subscription"),
    path(
        "subscriptions/<int:pk>/deliveries/",
        views.SubscriptionDeliveriesApi.as_view(),
        name="subscription-deliveries",
    ),
    path("rounds/", views.RoundsApi.as_view(), name="rounds"),
    path("rounds/replay/", views.RoundReplayApi.as_view(), name="round-replay"),
    path("analysis/base-game/", views.BaseGameAnalysisApi.as_view(), name="base-game-analysis"),
    path("simulations/", views.SimulationListApi.as_view(), name="simulations"),
    path("simulations/<uuid:pk>/", views.SimulationDetailApi.as_view(), name="simulation"),
    path(
        "paytable-simulations/",
        views.PaytableSimulationListApi.as_view(),
        name="paytable-simulations",
    ),
    path(
        "paytable-simulations/<uuid:pk>/",
        views.PaytableSimulationDetailApi.as_view(),
        name="paytable-simulation",
    ),
]
