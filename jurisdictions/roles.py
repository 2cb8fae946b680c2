"""What each role may touch, as data: the apps whose models a compliance officer may edit and the
permissions a vendor holds. jurisdictions.services turns them into the role groups after each
migration (jurisdictions.apps); nothing here imports a model, so the app config can read it."""

from __future__ import annotations

OFFICER_EDITABLE_APPS = ("jurisdictions", "regs", "variants", "compliance")
"""The apps whose models a compliance officer may edit (every permission of their models)."""

VENDOR_PERMISSIONS = {
    "compliance": ("add_validationrun", "view_validationrun", "add_signset", "view_signset")
    + ("add_simulationjob", "view_simulationjob")
    + ("add_paytablesimulationjob", "view_paytablesimulationjob"),
}
"""The permissions of the vendor group, by app label."""
