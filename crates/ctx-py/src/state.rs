//! The life of a `Workspace` object: not opened yet, open (the engine's
//! workspace and its database connection), or closed. Every method runs
//! through [`Workspace::with`], which opens on first use and refuses once
//! closed.

use std::sync::{Mutex, MutexGuard};

use ctxkeep_core::Workspace as CoreWorkspace;
use pyo3::prelude::*;
use serde::Serialize;

use crate::Workspace;
use crate::convert::{raise, to_py, to_py_err};

pub(crate) enum State {
    /// Made by `Workspace(path)`: opened by the first method that needs it.
    Unopened,
    Open(Box<CoreWorkspace>),
    /// `close()` was called: every method raises `WorkspaceClosedError`.
    Closed,
}

/// Why a method could not run: the workspace is closed, or the engine said no.
pub(crate) enum Failure {
    Closed,
    Engine(ctxkeep_core::Error),
}

impl From<ctxkeep_core::Error> for Failure {
    fn from(err: ctxkeep_core::Error) -> Failure {
        Failure::Engine(err)
    }
}

impl From<Failure> for PyErr {
    fn from(failure: Failure) -> PyErr {
        match failure {
            Failure::Closed => closed(),
            Failure::Engine(err) => to_py_err(err),
        }
    }
}

/// What a method of a closed workspace raises.
pub(crate) fn closed() -> PyErr {
    raise("WorkspaceClosedError", "WORKSPACE_CLOSED", "the workspace is closed".into())
}

impl Workspace {
    pub(crate) fn with_state(path: std::path::PathBuf, state: State) -> Workspace {
        Workspace { path, state: Mutex::new(state) }
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn is_closed(&self) -> bool {
        matches!(*self.lock(), State::Closed)
    }

    /// Run `f` on the open workspace (opening it first), without the GIL.
    pub(crate) fn with<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut CoreWorkspace) -> ctxkeep_core::Result<T> + Send,
    ) -> PyResult<T> {
        py.detach(|| {
            let mut state = self.lock();
            if let State::Unopened = *state {
                *state = State::Open(Box::new(CoreWorkspace::discover(&self.path)?));
            }
            match &mut *state {
                State::Open(ws) => Ok(f(ws)?),
                _ => Err(Failure::Closed),
            }
        })
        .map_err(PyErr::from)
    }

    /// [`Workspace::with`], its result as plain Python objects.
    pub(crate) fn json<'py, T: Serialize + Send>(
        &self,
        py: Python<'py>,
        f: impl FnOnce(&mut CoreWorkspace) -> ctxkeep_core::Result<T> + Send,
    ) -> PyResult<Bound<'py, PyAny>> {
        let value = self.with(py, f)?;
        to_py(py, &value)
    }

    /// Create `.ctx/` (unless closed) and keep the workspace open.
    pub(crate) fn init_open<T: Send>(
        &self,
        py: Python<'_>,
        init: impl FnOnce() -> ctxkeep_core::Result<(CoreWorkspace, T)> + Send,
    ) -> PyResult<T> {
        py.detach(|| {
            let mut state = self.lock();
            if let State::Closed = *state {
                return Err(Failure::Closed);
            }
            let (ws, report) = init()?;
            *state = State::Open(Box::new(ws));
            Ok(report)
        })
        .map_err(PyErr::from)
    }

    /// Drop the engine's workspace (closing its database) once any call
    /// running on it has ended; later calls raise.
    pub(crate) fn close_now(&self, py: Python<'_>) {
        py.detach(|| {
            let old = std::mem::replace(&mut *self.lock(), State::Closed);
            drop(old); // after the lock is released
        });
    }
}
