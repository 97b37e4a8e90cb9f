"""The orientation an agent is given before its first call.

It travels two ways and is one text: the ``initialize`` result carries it as
``instructions``, and ``hyper project`` writes it to ``AGENTS.md`` where a repository
has none. So it is worded for a reader holding either surface — it names commands
(``show``, not ``run_show``) and puts ``install``, ``store init`` and ``compact`` out
of reach because they are the human's, not because a tool is missing.

It is a function of the version because the Repository declaration it shows pins
the version of hyper allowed to act, and the right pin is the version of the binary
the reader is talking to.

It is paid for in every session, so it carries what an agent cannot learn from a
call and stops there; every rule it states is stated with its exception.
"""

from __future__ import annotations

_ORIENTATION = """\
# hyper

`hyper` runs infrastructure automation that you write, a person reviews, and `hyper` \
records. **You write the artefacts, a human approves the diff, and only then does \
anything run.** A Provider knows how to talk to one kind of system and offers \
Operations; a Definition is a named use of a Provider with limited authority; a \
Procedure is an ordered list of Steps; every Step acts on a Target and leaves Records \
behind.

A Provider is **data, never code**: reviewing the artefact is reviewing everything \
that will run, and every effect is carried out by `hyper` itself through a closed set \
of Capabilities that only `hyper` defines.

Your task will be one of four: **author** something new, **change** something already \
reviewed, **retire** something, or **operate** — run a Procedure and read the record. \
The same loop serves all four.

## The loop

1. **Read** with `providers`, `targets` and `provider`. `operation` hands back the \
Manifest's own lines for one Operation, exactly as written — that is the format to \
author in.
2. **Write the artefacts with your own file tools.** No `hyper` command writes a \
reviewed artefact: `hyper` writes only what it derives, and you write what is reviewed.
3. **`check`** — offline and without credentials, it reports each problem with its \
file, line, column and `error_code`. Repair and repeat until it reports nothing.
4. **`review`** — the rendering a human will approve. A changed artefact is reviewed \
against the last Run that read it.
5. **Stop and hand the diff to a human.** Nothing you wrote has authority until someone \
has read it, and there is no approval command: an agent never approves its own work.
6. **Once approved, commit the artefacts, then `run`.** A Run records every artefact by \
its git blob id. Bytes that were never committed have no such object, so the Record \
would point at a revision that resolves nowhere, the next `review` would find no \
baseline, and `changes` would see no moved lines. Making the commit is your job, like \
the writing.

`probe` asks a throwaway question and records nothing: one `read` against `local`, no \
Definition needed. Given a saved response (`--response`, or the `response` argument) \
it makes no call at all and applies the Operation's `record:` block to that response.

Read the record back with `runs`, `show`, `records` and `changes`; `changes` reports \
what moved, field by field, since the last Run. **The record is a branch of this \
repository** — `hyper-store`, append-only and never checked out — so the working tree \
shows none of it, and it travels with every clone. `git log hyper-store` reads it \
directly.

A Procedure that gains a `cadence:` is not finished until `project` has run: until \
then `check` reports `projection-stale`.

**Deleting a Definition does not destroy what it created.** Its Assets become \
Orphaned — still recorded, out of reach of anything `hyper` can do, and reported for as \
long as they exist. Say so before deleting one; the operator may want them destroyed \
by a Step first.

## The five artefacts

| artefact | where | what it holds |
| --- | --- | --- |
| **Manifest** | `providers/` | A whole Provider: class, Capabilities, auth scheme, and its \
Operations, each with a Kind (`read`, `mutate` or `destroy`), a request, an input \
schema and a `record:` projection. |
| **Target declaration** | `targets/` | One system that may be acted on: the Kinds it \
admits, the Capabilities it grants, the hosts it permits, where its credential comes \
from. |
| **Definition** | `definitions/` | A named use of a Provider: the Kinds it claims and \
the Targets it may act on. It either observes or effects, never both. |
| **Procedure** | `procedures/` | Ordered Steps, each one Operation through one \
Definition against one Target, with its `args:`. |
| **Repository declaration** | `hyper.yaml` | Which `hyper` version may act here and \
how long Records are kept. **`project` writes it.** |

The version pin is the version of the `hyper` you are talking to. Read `hyper.yaml` \
rather than copying it, and never write its `digest:` by hand — only `project` can \
compute it, and a workflow runner checks downloaded bytes against it:

```yaml
kind: repository-declaration
version: {version}
digest: sha256:0000000000000000000000000000000000000000000000000000000000000000
retention: 90d
```

**Format.** A strict subset of YAML: no anchors, aliases, merge keys or tags, and no \
expression language. A `{{hole}}` in a request is filled from the Step's `args:`; a \
`$.body…` path inside `record:` points into the response, and an `over:` beside it \
turns a collection into one Record per member.

**Bounds.** An effectful Step may declare `bound:`, the most Records it may touch. It \
is **required** on a `destroy`, but **refused** on an opaque `destroy` — one whose \
request is `shell:`, as every `destroy` of the built-in `shell` Provider is — because a \
count of commands says nothing about what they did. On an opaque `mutate` it is \
accepted and changes nothing: `review` flags that Step `UNBOUNDED` either way.

**Credentials never appear in an artefact.** The Target names an environment \
variable, and `hyper` places its value in the header the Manifest's `auth:` names; no \
rendering ever shows it.

**Two request shapes.** For a single host, `host: "{{from-target}}"` resolves to the one \
host the bound Target grants and `auth:` says which header carries the credential — \
the shape for anything that creates or ends something. For many hosts, the same hole \
expands to every host the Target grants and `host-input:` names the input that picks \
one per Step — the shape for checking things.

**Records.** `record:` is required on a `read` and a `mutate` and forbidden on a \
`destroy`, whose Tombstone lands under the Asset's own identity. An Operation declaring \
`skip-if-recorded` takes its `identity:` from a hole, not from a `$.` path, because the \
test runs before the call. `repeatability:` is declared in the Manifest or defaulted \
there: an effectful Operation that declares none is run-once.

**Whether a `record:` path resolves cannot be known offline.** Fetch one response with \
any client, save it as a response object (`host`, `status`, `headers`, `body`, `tls`) \
and pass it to `probe` with `--response`: no call is made, and the answer shows the \
Records the projection would write and the paths that found nothing. It is the only \
way to see a `mutate`'s projection. Keep that file out of git — add it to \
`.gitignore` — since a saved response is where a token slips into a tree. Never write a \
throwaway Operation that projects `$.body` just to look at a response: that copies a \
whole body into the append-only record, and only `compact` can take it out.

## What halts a Run

A `read` never halts because of what came back: any status is recorded, and when no \
response arrived at all the response object holds only the host. What halts a `read` \
is a projection path that found nothing. An effectful Operation completes on a `2xx` \
(a `destroy` also on `404`) and halts on anything else. Judge a Step by its \
Disposition, never by the prose beside it.

A Procedure can invoke another with a Step holding only `id:` and `procedure:` — no \
`args:`, so a shared Procedure is fixed, not parameterised. Whatever halts inside it \
halts the whole Run, however deep. A check that must stop the work uses a `require:` \
Step (only `id:` and `require:`), which halts the Run when its condition fails, where \
a `when:` would merely skip.

## Three commands belong to the human

`install`, `store init` and `compact` are not yours to run, on either surface. You may \
read the record and add to it, but you **may not create it, prune it, or bring anything \
new into the repository**: `install` is where third-party data enters, `store init` \
creates the record, and `compact` permanently removes from it. When a call Refuses and \
names one of them, say so and stop — the human runs it.

## A Refusal is final

A Refusal is a guardrail declining a well-formed call, and it names its own remedy. \
**The same call retried refuses identically**: no argument, flag, approval or \
exemption widens your authority. Change what it names, or explain what has to happen \
and leave it to the human. A malformed call is different — it comes back as an error \
with the sentence a person would have read, and fixing and repeating it is fine.

## A note for the next agent

`hyper project` writes this text to `AGENTS.md` when the repository has none and never \
overwrites one. If there is no `AGENTS.md`, offer to write one; if there is one that \
says nothing about `hyper`, offer to add a section. `AGENTS.md` is **not a reviewed \
artefact**: it is none of the five, grants no authority, nothing in a Run reads it, \
and `check` ignores it. It is a note, and it shows up in the diff like any other file \
you write.
"""


def instructions(version: str) -> str:
    """The orientation, pinned to ``version``."""
    return _ORIENTATION.format(version=version)
