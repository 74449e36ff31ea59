"""The one exception the record decoders raise on malformed input.

Everything in ``kwire.records`` that parses untrusted bytes (varints, record
bodies, compressed payloads) turns every failure into ``CorruptRecordError``,
so callers catch one type and never see ``IndexError``, ``struct.error`` or a
codec library's own exception. It subclasses ``ValueError`` so generic
``except ValueError`` handlers keep working. Handlers map it to Kafka's
CORRUPT_MESSAGE (2) or INVALID_RECORD (87) as the API requires; this module
does not decide which.
"""


class CorruptRecordError(ValueError):
    """Malformed record batch, record, varint or compressed payload."""
