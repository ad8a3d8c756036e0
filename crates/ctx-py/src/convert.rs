//! Values and errors between the engine and Python: choices parsed from
//! strings, results as plain dicts and lists, engine errors as the
//! `ctxkeep.errors` exceptions (in one place, [`to_py_err`]).

use ctxkeep_core::{FrameStatus, Rendering, Tier};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde::Serialize;

pub(crate) fn parse_tier(text: &str) -> PyResult<Tier> {
    parse_choice(text, Tier::parse, "tiers", "minimal, standard, full, deep")
}

pub(crate) fn parse_status(text: &str) -> PyResult<FrameStatus> {
    let names = FrameStatus::ALL.map(FrameStatus::as_str).join(", ");
    parse_choice(text, FrameStatus::parse, "statuses", &names)
}

pub(crate) fn parse_rendering(text: &str) -> PyResult<Rendering> {
    parse_choice(text, Rendering::parse, "formats", "xml, md, json, prompt")
}

/// `text` parsed by `parse`, or `InvalidInputError` listing `the {what} are {names}`.
pub(crate) fn parse_choice<T>(
    text: &str,
    parse: fn(&str) -> Option<T>,
    what: &str,
    names: &str,
) -> PyResult<T> {
    parse(text).ok_or_else(|| invalid(format!("{text:?}: the {what} are {names}")))
}

/// Bad arguments raise what the engine's `INVALID_INPUT` raises.
pub(crate) fn invalid(message: String) -> PyErr {
    to_py_err(ctxkeep_core::Error::InvalidInput(message))
}

/// The one place where engine errors become Python exceptions: the class
/// named for the error's code in `ctxkeep.errors`, with `code` and `message`.
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
    let (code, message) = (err.code(), err.to_string());
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
