"""Settings are owned by their components; Config composes them; the command line holds the help
(issue 31 item 3)."""

from __future__ import annotations

from dataclasses import fields

import pytest

from smatchpp.alignment import compile as compile_module
from smatchpp.alignment.config import PARTS, SETTINGS, Config
from smatchpp.alignment.matchers import MATCHER_SETTINGS, MATCHERS, S2MatchSettings, build_matcher, matcher_settings
from smatchpp.core.policy import RunPolicy
from smatchpp.core.settings import Settings, signed


def test_every_config_field_is_one_components_setting():
    owners = {}
    for part in PARTS:
        for f in fields(part):
            owners.setdefault(f.name, []).append(part)
    declared = {s.name: s for part in PARTS for s in signed(part)}
    for f, s in zip(fields(Config), SETTINGS):
        assert f.name in owners, f"{f.name} is declared by no component"
        own = declared[f.name]
        # the same declaration: default, key, type, file identity, flag (Config adds when it matters)
        assert (own.key, own.kind, own.default, own.identity, own.resolves, own.flag) == \
               (s.key, s.kind, s.default, s.identity, s.resolves, s.flag), f.name


def test_the_library_holds_no_command_line_help():
    from smatchpp.cli.options import OPTIONS

    assert set(OPTIONS) == {f.name for f in fields(Config)}
    for f in fields(Config):
        assert "option" not in f.metadata and "help" not in f.metadata, f.name


def test_a_component_checks_its_own_settings():
    with pytest.raises(ValueError, match="cutoff must be a number in \\[0, 1\\]"):
        S2MatchSettings(cutoff=2)
    with pytest.raises(ValueError, match="bootstrap must be at most 1,000,000"):
        RunPolicy(bootstrap=2_000_000)
    assert RunPolicy(time_limit=3).time_limit == 3.0 and isinstance(RunPolicy(time_limit=3).time_limit, float)


def test_config_hands_each_component_its_settings():
    config = Config(match="s2match", cutoff=0.25, time_limit=5, on_error="skip")
    assert config.part(S2MatchSettings) == S2MatchSettings(cutoff=0.25)
    assert config.matcher_settings == S2MatchSettings(cutoff=0.25)
    assert config.policy == RunPolicy(time_limit=5.0, on_error="skip")
    assert not config.deterministic and not config.policy.deterministic


@pytest.mark.parametrize("name", sorted(MATCHERS))
def test_a_matcher_receives_its_own_settings_not_the_config(name, monkeypatch):
    seen = []
    real = MATCHERS[name]
    monkeypatch.setitem(MATCHERS, name, lambda settings: seen.append(settings) or real(settings))
    config = Config(match=name) if name != "s2match" else Config(match=name, cutoff=0.3)
    if name == "s2match":
        pytest.importorskip("smatchpp.alignment.matchers.embeddings")
        try:
            build_matcher(config)
        except Exception as exc:  # the packaged vectors may be absent: the settings still arrived
            if not seen:
                raise exc
    else:
        build_matcher(config)
    assert len(seen) == 1
    assert type(seen[0]) is MATCHER_SETTINGS[name] and isinstance(seen[0], Settings)
    assert seen[0] == matcher_settings(name, config)


def test_build_matcher_takes_only_what_the_matcher_reads():
    m = build_matcher(match="concept-focus", focus_weight=2.0, cutoff=0.9, seed=3)
    assert m.name == "concept-focus"
