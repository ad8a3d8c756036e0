//! The artifact half of the binding: arguments in Python's terms (an
//! operation as a dict or a JSON string, times as datetimes, ages as
//! timedeltas), artifact errors raised as `ctxkeep.errors.ArtifactError`
//! subclasses with the seed's `suggestions`, `action` and `candidates`.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ctxkeep_core::ArtifactError;
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyMapping, PyString};

/// The class of `ctxkeep.errors` an artifact error code raises.
fn class_of(code: &str) -> &'static str {
    match code {
        "ARTIFACT_NOT_FOUND" => "ArtifactNotFoundError",
        "SECTION_NOT_FOUND" => "SectionNotFoundError",
        "ARTIFACT_FINALIZED" => "ArtifactFinalizedError",
        "CONTEXT_TOO_LARGE" => "ArtifactContextTooLargeError",
        "AMBIGUOUS_TARGET" => "AmbiguousTargetError",
        "INVALID_OPERATION" => "InvalidOperationError",
        "ARTIFACT_CHANGED" => "ArtifactChangedError",
        "SNAPSHOT_NOT_FOUND" => "SnapshotNotFoundError",
        "SUGGESTION_NOT_FOUND" => "SuggestionNotFoundError",
        _ => "ArtifactError",
    }
}

/// `err` as the `ctxkeep.errors` exception of its code, with `code`,
/// `message`, `suggestions`, `action` and `candidates` (the seed's object,
/// its CLI wording said in Python's terms).
pub(crate) fn to_py_err(err: &ArtifactError) -> PyErr {
    let err = pythonic(err);
    let code = err.error.as_str();
    let text = err.to_string();
    Python::attach(|py| {
        let raised = (|| -> PyResult<Bound<'_, PyAny>> {
            let kwargs = PyDict::new(py);
            kwargs.set_item("suggestions", &err.suggestions)?;
            kwargs.set_item("action", &err.action)?;
            kwargs.set_item("candidates", crate::convert::to_py(py, &err.candidates)?)?;
            kwargs.set_item("text", &text)?;
            py.import("ctxkeep.errors")?
                .getattr(class_of(code))?
                .call((err.message.clone(), code), Some(&kwargs))
        })();
        match raised {
            Ok(exception) => PyErr::from_value(exception),
            Err(_) => PyRuntimeError::new_err(format!("[{code}] {text}")),
        }
    })
}

/// The CLI's wording in an artifact error (commands in backticks, flags)
/// said as the Python calls that do the same.
fn pythonic(err: &ArtifactError) -> ArtifactError {
    let mut err = err.clone();
    err.message = crate::words::pythonic(&err.message);
    err.action = err.action.as_deref().map(crate::words::pythonic);
    err
}

/// An operation given as a dict (any mapping) or as a JSON string.
pub(crate) fn operation_json(op: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = op.cast::<PyString>() {
        return text.extract();
    }
    if let Ok(mapping) = op.cast::<PyMapping>() {
        let dict = PyDict::new(op.py());
        for item in mapping.items()?.iter() {
            let (key, value): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract()?;
            dict.set_item(key, value)?;
        }
        return op.py().import("json")?.call_method1("dumps", (dict,))?.extract();
    }
    Err(PyTypeError::new_err(format!(
        "an operation is a dict or a JSON string, not {}",
        op.get_type().name()?
    )))
}

/// A point in time: a `datetime` (naive: UTC, as the times ctx returns), an
/// ISO-8601 string, or seconds since the epoch.
pub(crate) fn system_time(at: &Bound<'_, PyAny>) -> PyResult<SystemTime> {
    let py = at.py();
    let seconds: f64 = if let Ok(text) = at.cast::<PyString>() {
        let text: String = text.extract()?;
        return humantime::parse_rfc3339_weak(text.trim().trim_end_matches(['Z', 'z'])).map_err(|err| {
            crate::convert::invalid(format!(
                "{text:?}: {err} (an ISO-8601 time such as 2026-05-01T10:00:00Z)"
            ))
        });
    } else if at.hasattr("timestamp")? && at.hasattr("tzinfo")? {
        let aware = if at.getattr("tzinfo")?.is_none() {
            let utc = py.import("datetime")?.getattr("timezone")?.getattr("utc")?;
            let kwargs = PyDict::new(py);
            kwargs.set_item("tzinfo", utc)?;
            at.call_method("replace", (), Some(&kwargs))?
        } else {
            at.clone()
        };
        aware.call_method0("timestamp")?.extract()?
    } else {
        at.extract().map_err(|_| {
            PyTypeError::new_err("a time is a datetime, an ISO-8601 string or seconds since the epoch")
        })?
    };
    if !seconds.is_finite() {
        return Err(crate::convert::invalid(format!("{seconds}: not a time")));
    }
    let since = Duration::from_secs_f64(seconds.abs());
    Ok(if seconds >= 0.0 { UNIX_EPOCH + since } else { UNIX_EPOCH - since })
}

/// An age: a `timedelta` or a number of seconds, 0 or more.
pub(crate) fn duration(age: &Bound<'_, PyAny>) -> PyResult<Duration> {
    let seconds: f64 = if age.hasattr("total_seconds")? {
        age.call_method0("total_seconds")?.extract()?
    } else {
        age.extract().map_err(|_| PyTypeError::new_err("an age is a timedelta or a number of seconds"))?
    };
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(crate::convert::invalid(format!("{seconds}: an age is a number of seconds, 0 or more")));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// `level=`: minimal, standard or full.
pub(crate) fn context_level(level: &str) -> PyResult<ctxkeep_core::artifact::ContextLevel> {
    ctxkeep_core::artifact::ContextLevel::parse(level).ok_or_else(|| {
        crate::convert::invalid(format!("level={level:?}: the levels are minimal, standard, full"))
    })
}

/// `format=`: whether the context comes as Markdown (`"markdown"`) rather than a dict (`"json"`).
pub(crate) fn markdown_format(format: &str) -> PyResult<bool> {
    match format {
        "json" => Ok(false),
        "markdown" => Ok(true),
        other => Err(crate::convert::invalid(format!("format={other:?}: the formats are json, markdown"))),
    }
}

/// `kind=`: the chat or the research prompt.
pub(crate) fn prompt_kind(kind: &str) -> PyResult<ctxkeep_core::artifact::PromptKind> {
    match kind {
        "chat" => Ok(ctxkeep_core::artifact::PromptKind::Chat),
        "research" => Ok(ctxkeep_core::artifact::PromptKind::Research),
        other => Err(crate::convert::invalid(format!("kind={other:?}: the prompts are chat, research"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_wording_becomes_python_calls() {
        let err = pythonic(&ArtifactError::finalized("concept"));
        assert_eq!(
            err.action.as_deref(),
            Some(
                "Ask user to un-finalize (`Workspace.unfinalize_artifact(\"concept\")`) or repeat with override_finalized=True"
            )
        );
        let err = pythonic(&ArtifactError::artifact_not_found("x", &[]));
        assert_eq!(
            err.action.as_deref(),
            Some("add it with `Workspace.add_artifact(path)`, or see `Workspace.artifacts()`")
        );
    }
}
