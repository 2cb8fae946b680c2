"""Constraint.kind becomes a KindField, whose choices stay out of migrations (docs/migrations.md).

State only: the column (varchar(40) NOT NULL) is unchanged, so no SQL is run on any database.
"""

from django.db import migrations

import variants.models


class Migration(migrations.Migration):
    dependencies = [
        ("variants", "0016_paytable_footnotes"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="constraint",
                    name="kind",
                    field=variants.models.KindField(max_length=40),
                ),
                migrations.AlterField(
                    model_name="historicalconstraint",
                    name="kind",
                    field=variants.models.KindField(max_length=40),
                ),
            ]
        ),
    ]
