//! A Python object as the engine's [`Embedder`].

use std::sync::Mutex;

use ctxkeep_core::{EmbedError, Embedder};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// A Python object serving as an [`Embedder`]: its `name` (a str) and its
/// `embed(texts: list[str]) -> list[list[float]]`, called with the GIL.
pub(crate) struct PyEmbedder {
    object: Py<PyAny>,
    name: String,
    /// The last exception `embed` raised: the cause of the `EmbedderError`
    /// a failed call raises.
    raised: Mutex<Option<PyErr>>,
}

impl PyEmbedder {
    pub(crate) fn new(object: Bound<'_, PyAny>) -> PyResult<PyEmbedder> {
        let name: String = object.getattr("name").and_then(|name| name.extract()).map_err(|_| {
            PyTypeError::new_err("an embedder needs a `name` (str) and an `embed(texts)` method")
        })?;
        if !object.hasattr("embed")? {
            return Err(PyTypeError::new_err(
                "an embedder needs a `name` (str) and an `embed(texts)` method",
            ));
        }
        if name.trim().is_empty() || name.starts_with("builtin:") {
            return Err(PyValueError::new_err(format!(
                "{name:?}: an embedder's name must be non-empty and not start with \"builtin:\""
            )));
        }
        Ok(PyEmbedder { object: object.unbind(), name, raised: Mutex::new(None) })
    }

    /// `err`, caused by what `embed` raised during the call that failed with it.
    pub(crate) fn cause_of(&self, py: Python<'_>, err: PyErr) -> PyErr {
        let raised = self.raised.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
        if let Some(cause) = raised
            && err.cause(py).is_none()
        {
            err.set_cause(py, Some(cause));
        }
        err
    }
}

impl Embedder for PyEmbedder {
    fn name(&self) -> &str {
        &self.name
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Python::attach(|py| {
            let vectors = self.object.bind(py).call_method1("embed", (texts.to_vec(),));
            let vectors = vectors.and_then(|vectors| vectors.extract::<Vec<Vec<f32>>>());
            vectors.map_err(|err| {
                let message = err.to_string();
                *self.raised.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(err);
                EmbedError(message)
            })
        })
    }
}
