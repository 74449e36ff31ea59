"""``kwire.protocol.errors.code_of``: the one mapping of an error code read off the wire."""

from kwire.protocol.errors import ErrorCode, code_of


def test_known_codes_keep_their_meaning_and_unknown_ones_are_unknown_server_error():
    assert code_of(0) is ErrorCode.NONE
    assert code_of(3) is ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    assert code_of(-1) is ErrorCode.UNKNOWN_SERVER_ERROR
    # a code from a newer peer that this kwire does not know, and nonsense
    assert code_of(max(ErrorCode) + 1) is ErrorCode.UNKNOWN_SERVER_ERROR
    assert code_of(-2) is ErrorCode.UNKNOWN_SERVER_ERROR
