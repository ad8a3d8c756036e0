//! Values and errors between the engine and Python: choices parsed from
//! strings, counts checked as counts, results as plain dicts and lists,
//! engine errors as the `ctxkeep.errors` exceptions (in one place,
//! [`to_py_err`], their messages in Python's words).

use ctxkeep_core::{BuildMode, EmbedderFailure, FrameStatus, Rendering, Tier};
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList};
use serde::Serialize;

pub(crate) fn parse_tier(text: &str) -> PyResult<Tier> {
    parse_choice(text, Tier::parse, "tier", "tiers", "minimal, standard, full, deep")
}

pub(crate) fn parse_status(text: &str) -> PyResult<FrameStatus> {
    let names = FrameStatus::ALL.map(FrameStatus::as_str).join(", ");
    parse_choice(text, FrameStatus::parse, "status", "statuses", &names)
}

/// `mode=` of `build`.
pub(crate) fn parse_build_mode(text: &str) -> PyResult<BuildMode> {
    match text {
        // "changed" was the default's name before 0.1's release; kept as an alias.
        "stale" | "changed" => Ok(BuildMode::Stale),
        "force" => Ok(BuildMode::Force),
        other => Err(invalid(format!("mode={other:?}: the modes are stale, force"))),
    }
}

/// `on_embedder_error=` of `search`: what it does when its embedder fails.
pub(crate) fn parse_embedder_failure(text: &str) -> PyResult<EmbedderFailure> {
    let parse = |text: &str| match text {
        "fallback" => Some(EmbedderFailure::Fallback),
        "raise" => Some(EmbedderFailure::Error),
        _ => None,
    };
    parse_choice(text, parse, "on_embedder_error", "choices", "fallback, raise")
}

/// A number of seconds, 0 or more, given as argument `name`.
pub(crate) fn seconds(name: &str, value: f64) -> PyResult<std::time::Duration> {
    if !(value.is_finite() && value >= 0.0) {
        return Err(invalid(format!("{name}={value}: a number of seconds, 0 or more")));
    }
    Ok(std::time::Duration::from_secs_f64(value))
}

pub(crate) fn parse_rendering(text: &str) -> PyResult<Rendering> {
    parse_choice(text, Rendering::parse, "format", "formats", "xml, md, json, prompt")
}

/// `text`, given as argument `argument`, parsed by `parse`, or
/// `InvalidInputError` listing `the {what} are {names}`.
pub(crate) fn parse_choice<T>(
    text: &str,
    parse: fn(&str) -> Option<T>,
    argument: &str,
    what: &str,
    names: &str,
) -> PyResult<T> {
    parse(text).ok_or_else(|| invalid(format!("{argument}={text:?}: the {what} are {names}")))
}

/// `from_py_with` extractors of counts, one per argument name, so that a
/// negative or huge int raises `InvalidInputError` naming the argument
/// (`k=-1: …`), not `OverflowError`.
macro_rules! count_arguments {
    ($extract:ident -> $ty:ty: $($name:ident),+) => {
        $(pub(crate) fn $name(value: &Bound<'_, PyAny>) -> PyResult<$ty> {
            super::$extract(stringify!($name), value)
        })+
    };
}

/// Counts: `#[pyo3(from_py_with = count::k)] k: usize`.
pub(crate) mod count {
    use super::*;
    count_arguments!(count -> usize: k, before, after, tokens);
}

/// Counts that may be `None`: `#[pyo3(from_py_with = optional_count::head)] head: Option<usize>`.
pub(crate) mod optional_count {
    use super::*;
    count_arguments!(optional_count -> Option<usize>: k, head, depth, tokens);
}

/// `value` as a count: an int, 0 or more, that fits a `usize`.
fn count(name: &str, value: &Bound<'_, PyAny>) -> PyResult<usize> {
    let int = value.cast::<PyInt>().map_err(|_| {
        let kind = value.get_type().name().map(|name| name.to_string()).unwrap_or_default();
        PyTypeError::new_err(format!("{name} is a count (an int), not {kind}"))
    })?;
    if let Ok(n) = int.extract::<usize>() {
        return Ok(n);
    }
    let why = if int.lt(0)? { "a count is 0 or more" } else { "too large for a count" };
    Err(invalid(format!("{name}={}: {why}", int.repr()?)))
}

fn optional_count(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    if value.is_none() { Ok(None) } else { count(name, value).map(Some) }
}

/// Bad arguments raise what the engine's `INVALID_INPUT` raises.
pub(crate) fn invalid(message: String) -> PyErr {
    to_py_err(ctxkeep_core::Error::InvalidInput(message))
}

/// The one place where engine errors become Python exceptions: the class
/// named for the error's code in `ctxkeep.errors`, with `code` and `message`
/// (in Python's words: see [`crate::words`]).
pub(crate) fn to_py_err(err: ctxkeep_core::Error) -> PyErr {
    if let ctxkeep_core::Error::Artifact(err) = &err {
        return crate::artifact::to_py_err(err);
    }
    let class = match err.code() {
        "NOT_A_WORKSPACE" => "NotAWorkspaceError",
        "UNKNOWN_FOLDER" => "UnknownFolderError",
        "OUTSIDE_ROOT" => "OutsideRootError",
        "INVALID_INPUT" => "InvalidInputError",
        "CONFIG_ERROR" | "INVALID_HARNESS_CONFIG" => "ConfigError",
        "IO_ERROR" => "CtxIOError",
        "TEMPLATE_ERROR" => "TemplateError",
        "UNKNOWN_FRAME" => "UnknownFrameError",
        "UNKNOWN_RECORD" => "UnknownRecordError",
        "EMBEDDER_ERROR" => "EmbedderError",
        "NO_CURRENT_FRAME" => "NoCurrentFrameError",
        "INVALID_FRAME_STATE" => "FrameStateError",
        "INVALID_BUDGET" => "BudgetError",
        "CONTEXT_TOO_LARGE" => "ContextTooLargeError",
        "MANAGED_SECTION_BROKEN" | "NEWER_MANAGED_SECTION" => "ManagedSectionError",
        "INVALID_KNOWLEDGE_FILE" => "KnowledgeFileError",
        _ => "DatabaseError",
    };
    let (code, message) = (err.code(), crate::words::pythonic(&err.to_string()));
    raise(class, code, message)
}

/// An exception of class `class` of `ctxkeep.errors`, with `message` and `code`.
pub(crate) fn raise(class: &str, code: &str, message: String) -> PyErr {
    Python::attach(|py| {
        let raised = py
            .import("ctxkeep.errors")
            .and_then(|module| module.getattr(class))
            .and_then(|class| class.call1((message.clone(), code)));
        match raised {
            Ok(exception) => PyErr::from_value(exception),
            Err(_) => PyRuntimeError::new_err(format!("[{code}] {message}")),
        }
    })
}

/// Any serializable engine result as plain Python objects.
pub(crate) fn to_py<'py, T: Serialize>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>> {
    let json = serde_json::to_value(value).map_err(|err| PyRuntimeError::new_err(err.to_string()))?;
    json_to_py(py, &json)
}

/// A JSON text the engine made, as plain Python objects.
pub(crate) fn json_text_to_py<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|err| PyRuntimeError::new_err(err.to_string()))?;
    json_to_py(py, &value)
}

pub(crate) fn json_to_py<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, item) in map {
                dict.set_item(key, json_to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// Map errors raise what the engine's errors raise.
pub(crate) fn map_err(err: ctxkeep_map::Error) -> PyErr {
    match err {
        ctxkeep_map::Error::Core(err) => to_py_err(err),
        ctxkeep_map::Error::InvalidInput(message) => invalid(message),
        ctxkeep_map::Error::Tags(message) => PyRuntimeError::new_err(format!("[TAGS_ERROR] {message}")),
        // `ctx eval`'s git errors: no Python call reaches them today.
        err => PyRuntimeError::new_err(format!("[{}] {err}", err.code())),
    }
}
