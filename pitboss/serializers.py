"""Django's JSON serialization format (dumpdata, loaddata, backups) keeping times exact.

Django's own JSON encoder cuts a time to milliseconds, so a backup restored would not be the
data backed up (a record time of 12:00:00.000345 comes back 12:00:00). This one writes every
microsecond; reading is Django's. Installed for the "json" format (settings.SERIALIZATION_MODULES).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.serializers.json import Deserializer, DjangoJSONEncoder
from django.core.serializers.json import Serializer as JSONSerializer

__all__ = ["Deserializer", "Serializer"]


class ExactEncoder(DjangoJSONEncoder):
    def default(self, o: Any) -> Any:
        if isinstance(o, dt.datetime):
            text = o.isoformat()
            return text.removesuffix("+00:00") + "Z" if text.endswith("+00:00") else text
        if isinstance(o, dt.time):
            return o.isoformat()
        return super().default(o)


class Serializer(JSONSerializer):
    def _init_options(self) -> None:
        super()._init_options()  # type: ignore[misc]
        self.json_kwargs["cls"] = ExactEncoder
