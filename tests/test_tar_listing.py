"""A plain tar archive's members listed from its headers equal tarfile's listing, for every format Python writes;
what the fast lister cannot vouch for it leaves to tarfile (graphsr/io/tar_listing.py)."""

from __future__ import annotations

import io
import tarfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.errors import CollectionError
from graphsr.io.collection import list_collection
from graphsr.io.tar_listing import plain_tar_members

_NAMES = st.text(st.sampled_from("abcxyz-_é漢/"), min_size=1, max_size=12).filter(
    lambda s: not s.startswith("/") and "//" not in s and not s.endswith("/")
)


@st.composite
def members(draw):
    out = []
    for i in range(draw(st.integers(1, 12))):
        name = draw(_NAMES)
        if draw(st.booleans()):  # a deep name, past ustar's 100 bytes (a prefix, or a long-name header)
            name = "/".join([f"dir{i}"] * draw(st.integers(15, 40))) + "/" + name
        kind = draw(st.sampled_from(["file", "file", "file", "dir", "symlink", "hardlink"]))
        out.append((f"{name}.{i}.xml", kind, draw(st.integers(0, 2000))))
    return out


def _archive(path, entries, fmt) -> None:
    with tarfile.open(path, "w", format=fmt) as tar:
        for name, kind, size in entries:
            info = tarfile.TarInfo(name)
            if kind == "file":
                info.size = size
                tar.addfile(info, io.BytesIO(b"x" * size))
            elif kind == "dir":
                info.type = tarfile.DIRTYPE
                tar.addfile(info)
            else:
                info.type = tarfile.SYMTYPE if kind == "symlink" else tarfile.LNKTYPE
                info.linkname = "target.xml"
                tar.addfile(info)


def _tarfile_listing(path) -> list[tuple[str, int, int]]:
    with tarfile.open(path) as tar:
        return [(m.name, m.size, m.offset_data) for m in tar.getmembers() if m.isfile()]


@settings(max_examples=150, deadline=None)
@given(members(), st.sampled_from([tarfile.USTAR_FORMAT, tarfile.GNU_FORMAT, tarfile.PAX_FORMAT]))
def test_the_listing_is_tarfiles(tmp_path_factory, entries, fmt):
    path = tmp_path_factory.mktemp("tar") / "a.tar"
    try:
        _archive(path, entries, fmt)
    except ValueError:  # a name ustar cannot hold
        return
    fast = plain_tar_members(path)
    if fmt == tarfile.PAX_FORMAT and fast is None:
        return  # pax headers (non-ASCII or long names) are left to tarfile
    if fmt in (tarfile.USTAR_FORMAT, tarfile.GNU_FORMAT):
        assert fast is not None  # every archive of these formats is listed here
    assert fast == _tarfile_listing(path)


def test_what_it_cannot_vouch_for_is_left_to_tarfile(tmp_path):
    path = tmp_path / "a.tar"
    _archive(path, [("d1.xml", "file", 700), ("d2.xml", "file", 10)], tarfile.USTAR_FORMAT)
    good = path.read_bytes()
    assert [m[0] for m in plain_tar_members(path)] == ["d1.xml", "d2.xml"]
    bad = bytearray(good)
    bad[148:156] = b"0000000\0"  # a checksum that does not add up
    path.write_bytes(bytes(bad))
    assert plain_tar_members(path) is None
    path.write_bytes(good[:1200])  # cut off within the second member's data
    assert plain_tar_members(path) is None
    with pytest.raises(CollectionError):
        list_collection(path)
    path.write_bytes(good + b"garbage" + b"\0" * 505)  # something after the end blocks
    assert plain_tar_members(path) is None
    with pytest.raises(CollectionError, match="after its last complete member"):
        list_collection(path)
    path.write_bytes(b"\0" * 10240)  # an archive that starts with its end
    assert plain_tar_members(path) is None
    compressed = tmp_path / "c.tar.gz"
    with tarfile.open(compressed, "w:gz") as tar:
        tar.add(tmp_path / "a.tar", arcname="x.xml")
    assert plain_tar_members(compressed) is None


def test_a_collection_listed_either_way_is_the_same(tmp_path, monkeypatch):
    path = tmp_path / "c.tar"
    _archive(
        path,
        [("b/two.xml", "file", 3), ("a/one.xml", "file", 5), ("a/readme.txt", "file", 4), ("a", "dir", 0)],
        tarfile.GNU_FORMAT,
    )
    fast = list_collection(path)
    import graphsr.io.tar_listing as tar_listing

    monkeypatch.setattr(tar_listing, "plain_tar_members", lambda p: None)
    assert list_collection(path) == fast
    assert [s.docid for s in fast] == ["one", "readme", "two"]
