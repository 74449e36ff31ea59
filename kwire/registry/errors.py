"""The Schema Registry's errors: an HTTP status, Confluent's ``error_code`` and a message.

Every refusal of the REST API is a ``RegistryError``; the HTTP layer answers it
as ``{"error_code": N, "message": text}`` with ``status``. The codes and the
message wording follow Confluent Schema Registry's ``Errors`` class, because
clients (confluent-kafka, the Java serializers, Kafka Connect) branch on the
codes: 40401 makes a serializer register, 40403 a deserializer fail, 409 a
producer report an incompatible schema.
"""

from __future__ import annotations

from functools import partial


class RegistryError(Exception):
    def __init__(self, status: int, error_code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.error_code = error_code
        self.message = message

    def body(self) -> dict:
        return {"error_code": self.error_code, "message": self.message}


def subject_not_found(subject: str) -> RegistryError:
    return RegistryError(404, 40401, f"Subject '{subject}' not found.")


def version_not_found(version) -> RegistryError:
    return RegistryError(404, 40402, f"Version {version} not found.")


def schema_not_found(schema_id: int | None = None) -> RegistryError:
    return RegistryError(404, 40403, "Schema not found" if schema_id is None else f"Schema {schema_id} not found")


def subject_soft_deleted(subject: str) -> RegistryError:
    return RegistryError(404, 40404, f"Subject '{subject}' was soft deleted.Set permanent=true to delete permanently")


def subject_not_soft_deleted(subject: str) -> RegistryError:
    return RegistryError(404, 40405, f"Subject '{subject}' was not deleted first before being permanently deleted")


def version_soft_deleted(subject: str, version: int) -> RegistryError:
    return RegistryError(404, 40406, f"Subject '{subject}' Version {version} was soft deleted."
                                     "Set permanent=true to delete permanently")


def version_not_soft_deleted(subject: str, version: int) -> RegistryError:
    return RegistryError(404, 40407, f"Subject '{subject}' Version {version} was not deleted first "
                                     "before being permanently deleted")


def subject_compatibility_not_configured(subject: str) -> RegistryError:
    return RegistryError(404, 40408, f"Subject '{subject}' does not have subject-level compatibility configured")


def subject_mode_not_configured(subject: str) -> RegistryError:
    return RegistryError(404, 40409, f"Subject '{subject}' does not have subject-level mode configured")


def invalid_schema(message: str) -> RegistryError:
    return RegistryError(422, 42201, f"Invalid schema {message}" if not message.startswith("Invalid") else message)


def invalid_version(version) -> RegistryError:
    return RegistryError(422, 42202, f"The specified version '{version}' is not a valid version id. Allowed "
                                     "values are between [1, 2^31-1] and the string \"latest\"")


def invalid_compatibility_level(level) -> RegistryError:
    return RegistryError(422, 42203, f"Invalid compatibility level. Valid values are none, backward, forward, "
                                     f"full, backward_transitive, forward_transitive, and full_transitive: {level}")


def invalid_mode(mode) -> RegistryError:
    return RegistryError(422, 42204, f"Invalid mode. Valid values are READWRITE, READONLY, IMPORT: {mode}")


def invalid_subject(subject: str) -> RegistryError:
    return RegistryError(422, 42208, f"The specified subject '{subject}' is not valid.")


# errors whose message is all the caller gives: error(message) -> RegistryError
incompatible = partial(RegistryError, 409, 409)
not_permitted = partial(RegistryError, 422, 42205)
reference_exists = partial(RegistryError, 422, 42206)
id_does_not_match = partial(RegistryError, 422, 42207)
schema_too_large = partial(RegistryError, 422, 42209)
unprocessable = partial(RegistryError, 422, 422)  # JSON, but not the expected shape (Jersey's 422)
bad_request = partial(RegistryError, 400, 400)  # a body that is not JSON at all
store_error = partial(RegistryError, 500, 50001)
operation_timeout = partial(RegistryError, 500, 50002)
forwarding_failed = partial(RegistryError, 500, 50003)
unknown_leader = partial(RegistryError, 500, 50004)
