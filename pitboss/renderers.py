"""Response renderers of the whole API (REST_FRAMEWORK's DEFAULT_RENDERER_CLASSES)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import renderers

from pitboss.text import texts_repaired


class JSONRenderer(renderers.JSONRenderer):
    """DRF's JSON renderer (settings.REST_FRAMEWORK), writing a lone surrogate left in stored
    data as U+FFFD where DRF's fails (UTF-8 cannot encode it) and the list or page holding it
    would answer 500 to everyone who reads it. New input holding one is refused
    (pitboss.text); `manage.py repair_stored_text` mends rows stored before."""

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        try:
            return super().render(data, accepted_media_type, renderer_context)
        except UnicodeEncodeError:
            return super().render(texts_repaired(data), accepted_media_type, renderer_context)
