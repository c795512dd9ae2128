"""Result types that were dicts keep item access for one release, with a DeprecationWarning."""

import dataclasses

import pytest

from gendyn import linear_experiments, teachers


@pytest.mark.parametrize("cls", [linear_experiments.RandomFeatureSweep, linear_experiments.RandomFeatureGD,
                                 teachers.SpikeMeasurement])
def test_item_access_warns_and_reads_the_attribute(cls):
    names = [f.name for f in dataclasses.fields(cls)]
    result = cls(**{name: k for k, name in enumerate(names)})
    with pytest.warns(DeprecationWarning, match=rf"no longer a dict.*use \.{names[0]}"):
        assert result[names[0]] == 0
    for bad in ("not_a_field", "__class__", 0):
        with pytest.raises(KeyError):
            result[bad]


@pytest.mark.parametrize("cls", [linear_experiments.RandomFeatureSweep, linear_experiments.RandomFeatureGD,
                                 linear_experiments.LinearStudentSweep, teachers.SpikeMeasurement])
def test_membership_keys_items_and_iteration_work_as_on_the_former_dict_and_warn(cls):
    names = [f.name for f in dataclasses.fields(cls)]
    result = cls(**{name: k for k, name in enumerate(names)})
    with pytest.warns(DeprecationWarning, match="no longer a dict"):
        assert names[0] in result and "not_a_field" not in result
    with pytest.warns(DeprecationWarning, match="no longer a dict"):
        assert list(result) == names == list(result.keys())
    with pytest.warns(DeprecationWarning, match="no longer a dict"):
        assert dict(result.items()) == {name: k for k, name in enumerate(names)}
    assert result == result and result != cls(**{name: k for k, name in enumerate(names)})  # by identity
