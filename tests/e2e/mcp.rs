//! `ctx mcp` over stdio, spoken to line by line (tests/mcp drives it with the
//! official MCP client): it starts, names itself, and a bad argument is a
//! tool error with the engine's code, after which it still answers.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use serde_json::{Value, json};

use crate::util::Repo;

#[test]
fn a_bad_argument_is_a_coded_tool_error_and_the_server_goes_on() {
    let repo = Repo::init("//- src/lib.rs\npub fn f() {}\n");
    let mut child = repo
        .cmd(&["mcp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn ctx mcp");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut ask = |message: Value| -> Option<Value> {
        writeln!(stdin, "{message}").expect("write a request");
        message.get("id")?;
        let mut line = String::new();
        stdout.read_line(&mut line).expect("read an answer");
        Some(serde_json::from_str(&line).expect("an answer is JSON"))
    };
    let init = ask(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "e2e", "version": "0"}}}))
    .expect("an answer");
    assert_eq!(init["result"]["serverInfo"]["name"], "ctx");
    ask(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let call = |id: u64, arguments: Value| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": "context", "arguments": arguments}})
    };

    let bad = ask(call(2, json!({"folder": "no/such"}))).expect("an answer");
    assert_eq!(bad["result"]["isError"], true, "{bad}");
    let text = bad["result"]["content"][0]["text"].as_str().expect("text");
    let error: Value = serde_json::from_str(text).expect("the error is JSON");
    assert_eq!(error["error"]["code"], "UNKNOWN_FOLDER");

    let good = ask(call(3, json!({"folder": "src"}))).expect("an answer");
    assert_eq!(good["result"]["isError"], false, "{good}");
    assert_eq!(good["result"]["structuredContent"]["folder"], "src");
    assert!(good["result"]["structuredContent"].get("from_file").is_none(), "{good}");

    // As context files title folders, and a file for its folder.
    let file = ask(call(4, json!({"folder": "/src/lib.rs"}))).expect("an answer");
    assert_eq!(file["result"]["isError"], false, "{file}");
    let content = &file["result"]["structuredContent"];
    assert_eq!((&content["folder"], &content["from_file"]), (&json!("src"), &json!("src/lib.rs")), "{file}");

    drop(stdin);
    assert!(child.wait().expect("ctx mcp exits").success(), "ctx mcp exits 0 when stdin closes");
}
