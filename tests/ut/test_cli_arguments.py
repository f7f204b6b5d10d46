"""How the command line reads its arguments (no server started)."""

import pytest

from mindinsight.cli import build_parser, with_token_values_joined


def parsed(*argv: str):
    return build_parser().parse_args(with_token_values_joined(list(argv)))


@pytest.mark.parametrize("token", ["-Zt1xT9c0tXr8vJm2QeYh4w", "--Zt1xT9c0tXr8vJm2QeYh4w", "Zt1xT9c0tXr8vJm2Qe-Yh4w"])
def test_a_token_may_start_with_a_dash_as_one_in_64_generated_ones_does(token):
    args = parsed("start", "--token", token, "--port", "8081")
    assert (args.token, args.port) == (token, 8081)


def test_a_token_without_its_value_is_still_refused(capsys):
    with pytest.raises(SystemExit) as ended:
        parsed("start", "--port", "8081", "--token")
    assert ended.value.code == 2 and "expected one argument" in capsys.readouterr().err
