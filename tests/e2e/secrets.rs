//! No secret leaves ctx: a repository with secrets planted everywhere a
//! user puts them (code, configs, docs, file names, commit messages,
//! transcripts, records, descriptions, decisions, frames), run through every
//! command that shows text. No value may appear in any output, any file
//! under `.ctx/`, or the database.
//!
//! The values are made when the test runs (a seeded generator), so this file
//! holds only the formats' prefixes, never a token a scan would flag.

use std::collections::BTreeSet;

use crate::util::Repo;

/// Deterministic random-looking characters.
struct Gen(u64);

impl Gen {
    fn chars(&mut self, alphabet: &str, len: usize) -> String {
        let chars: Vec<char> = alphabet.chars().collect();
        (0..len)
            .map(|_| {
                self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                chars[(self.0 >> 33) as usize % chars.len()]
            })
            .collect()
    }
    fn alnum(&mut self, len: usize) -> String {
        self.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", len)
    }
    fn hex(&mut self, len: usize) -> String {
        self.chars("0123456789abcdef", len)
    }
}

/// One planted secret: its format, and the value that must never be seen.
struct Planted {
    format: &'static str,
    value: String,
}

/// Every value planted, by format; `plant` returns the value to put somewhere.
#[derive(Default)]
struct Secrets {
    planted: Vec<Planted>,
}

impl Secrets {
    fn add(&mut self, format: &'static str, value: String) -> String {
        self.planted.push(Planted { format, value: value.clone() });
        value
    }
}

/// The formats, each a generator of a fresh value.
fn make(format: &'static str, g: &mut Gen) -> String {
    match format {
        "openai" => format!("sk-{}-{}", "proj", g.alnum(48)),
        "anthropic" => format!("sk-{}-api03-{}", "ant", g.alnum(90)),
        "github-classic" => format!("gh{}_{}", "p", g.alnum(36)),
        "github-user" => format!("gh{}_{}", "u", g.alnum(36)),
        "github-fine-grained" => format!("github_{}_{}_{}", "pat", g.alnum(22), g.alnum(59)),
        "gitlab" => format!("gl{}-{}", "pat", g.alnum(20)),
        "aws-key-id" => format!("AK{}{}", "IA", g.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)),
        "aws-secret" => g.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+", 40),
        "slack-bot" => {
            format!("xox{}-{}-{}-{}", "b", g.chars("0123456789", 12), g.chars("0123456789", 12), g.alnum(24))
        }
        "slack-webhook" => {
            format!("https://hooks.{}.com/services/T{}/B{}/{}", "slack", g.alnum(8), g.alnum(8), g.alnum(24))
        }
        "discord-webhook" => {
            format!("https://discord.com/api/{}/{}/{}", "webhooks", g.chars("0123456789", 18), g.alnum(60))
        }
        "stripe-live" => format!("sk_{}_{}", "live", g.alnum(24)),
        "stripe-restricted" => format!("rk_{}_{}", "live", g.alnum(24)),
        "huggingface" => {
            format!("hf_{}", g.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 34))
        }
        "sendgrid" => format!("S{}.{}.{}", "G", g.alnum(22), g.alnum(43)),
        "twilio" => format!("S{}{}", "K", g.hex(32)),
        "shopify" => format!("shp{}_{}", "at", g.hex(32)),
        "digitalocean" => format!("do{}_v1_{}", "p", g.hex(64)),
        "azure-account-key" => format!("{}==", g.alnum(86)),
        "postgres-password" => g.alnum(16),
        "redis-password" => g.alnum(20),
        "password" => format!("{}!{}", g.alnum(8), g.chars("0123456789", 3)),
        "generic-api-key" => g.alnum(32),
        "jwt" => format!("{}{}.{}{}.{}", "eyJ", g.alnum(24), "eyJ", g.alnum(40), g.alnum(43)),
        "pem-body" => g.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 64),
        "npm" => format!("np{}_{}", "m", g.alnum(36)),
        "pypi" => format!("pypi-{}{}", "AgEIcHlwaS5vcmc", g.alnum(60)),
        "google" => format!("AI{}{}", "za", g.alnum(35)),
        "groq" => format!("gs{}_{}", "k", g.alnum(52)),
        "mailgun" => format!("ke{}-{}", "y", g.hex(32)),
        "telegram" => format!("{}:{}{}", g.chars("0123456789", 10), "AA", g.alnum(33)),
        "docker" => format!("dckr_{}_{}", "pat", g.alnum(27)),
        "linear" => format!("lin_{}_{}", "api", g.alnum(40)),
        "vault" => format!("hv{}.{}", "s", g.alnum(90)),
        "square" => format!("sq0{}-{}", "atp", g.alnum(22)),
        "mailchimp" => format!("{}-us{}", g.hex(32), "12"),
        "bearer" => g.alnum(40),
        other => panic!("no generator for {other}"),
    }
}

/// Build the repository and plant the secrets; returns what was planted.
fn plant(repo: &Repo) -> (Secrets, Vec<Vec<String>>) {
    let mut g = Gen(0x5eed);
    let mut s = Secrets::default();
    let mut v = |s: &mut Secrets, format: &'static str| {
        let value = make(format, &mut g);
        s.add(format, value)
    };
    let pem = |body: &str, body2: &str| {
        format!(
            "{}\n{body}\n{body2}\n{}",
            concat!("-----BEGIN RSA ", "PRIVATE KEY-----"),
            concat!("-----END RSA ", "PRIVATE KEY-----")
        )
    };

    // Source constants, docstrings and doc comments (Python).
    let anthropic = v(&mut s, "anthropic");
    let (openai, gh_user, slack_hook) =
        (v(&mut s, "openai"), v(&mut s, "github-user"), v(&mut s, "slack-webhook"));
    let (restricted, hf, sendgrid) =
        (v(&mut s, "stripe-restricted"), v(&mut s, "huggingface"), v(&mut s, "sendgrid"));
    let (twilio, shopify, docean) = (v(&mut s, "twilio"), v(&mut s, "shopify"), v(&mut s, "digitalocean"));
    let (account_key, pg, redis) =
        (v(&mut s, "azure-account-key"), v(&mut s, "postgres-password"), v(&mut s, "redis-password"));
    let (password, jwt) = (v(&mut s, "password"), v(&mut s, "jwt"));
    let (body1, body2) = (v(&mut s, "pem-body"), v(&mut s, "pem-body"));
    let escaped_pem = pem(&body1, &body2).replace('\n', "\\\\n");
    repo.write(
        "ai/claude.py",
        &format!(
            "\"\"\"Talk to Claude.\n\nFor local runs the key {anthropic} works.\n\"\"\"\n\n\
             OPENAI_API_KEY = \"{openai}\"\nGITHUB_TOKEN = \"{gh_user}\"\nSLACK_WEBHOOK = \"{slack_hook}\"\n\
             STRIPE_KEY = \"{restricted}\"\nHF_TOKEN = \"{hf}\"\nSENDGRID = \"{sendgrid}\"\n\
             TWILIO_KEY_SID = \"{twilio}\"\nSHOPIFY = \"{shopify}\"\nDO_TOKEN = \"{docean}\"\n\
             AZURE = \"DefaultEndpointsProtocol=https;AccountName=shop;AccountKey={account_key};EndpointSuffix=core.windows.net\"\n\
             DATABASE_URL = \"postgres://shop:{pg}@db.internal:5432/shop\"\nCACHE_URL = \"redis://:{redis}@cache:6379/0\"\n\
             PASSWORD = \"{password}\"\nSERVICE_ACCOUNT = '{{\"type\": \"service_account\", \"private_key\": \"{escaped_pem}\"}}'\n\n\
             def ask(prompt: str) -> str:\n    \"\"\"Send a prompt.\"\"\"\n    return prompt\n"
        ),
    );
    repo.write("tests/test_auth.py", &format!("TOKEN = \"{jwt}\"\n\ndef test_decode():\n    assert TOKEN\n"));

    // A package docstring, a JS object, a Rust const and doc comment.
    let gh_classic = v(&mut s, "github-classic");
    repo.write(
        "pkg/__init__.py",
        &format!("\"\"\"The shop package. Deploy with token {gh_classic}.\"\"\"\n"),
    );
    let (api_key, google) = (v(&mut s, "generic-api-key"), v(&mut s, "google"));
    repo.write(
        "web/config.js",
        &format!("export const firebase = {{\n  apiKey: \"{google}\",\n  projectId: \"shop\",\n}};\nexport const apiKey = \"{api_key}\";\n"),
    );
    let (rust_secret, groq) = (v(&mut s, "generic-api-key"), v(&mut s, "groq"));
    repo.write(
        "core/src/lib.rs",
        &format!("//! The core. Its tests call Groq with {groq}.\n\n/// Signs requests.\npub const SECRET: &str = \"{rust_secret}\";\n\npub fn sign() {{}}\n"),
    );

    // Config files and docs.
    let (aws_id, aws_secret, npm) = (v(&mut s, "aws-key-id"), v(&mut s, "aws-secret"), v(&mut s, "npm"));
    repo.write(
        "deploy/settings.yaml",
        &format!(
            "aws:\n  access_key_id: {aws_id}\n  aws_secret_access_key: {aws_secret}\nnpm_token: {npm}\n"
        ),
    );
    let (pypi, mailgun, telegram) = (v(&mut s, "pypi"), v(&mut s, "mailgun"), v(&mut s, "telegram"));
    repo.write(
        "deploy/app.toml",
        &format!("[publish]\npypi_token = \"{pypi}\"\n\n[mail]\nmailgun = \"{mailgun}\"\n\n[bot]\ntelegram = \"{telegram}\"\n"),
    );
    let (docker, linear) = (v(&mut s, "docker"), v(&mut s, "linear"));
    repo.write("deploy/tokens.json", &format!("{{\"docker\": \"{docker}\", \"linear\": \"{linear}\"}}\n"));
    let (readme_password, bearer, stripe_live) =
        (v(&mut s, "password"), v(&mut s, "bearer"), v(&mut s, "stripe-live"));
    repo.write(
        "README.md",
        &format!(
            "# Shop\n\nThe admin password is {readme_password} until we rotate it.\n\n\
             ```sh\ncurl -H \"Authorization: Bearer {bearer}\" https://api.shop.test\n```\n\n\
             Payments use {stripe_live}.\n"
        ),
    );
    let (plain_body1, plain_body2) = (v(&mut s, "pem-body"), v(&mut s, "pem-body"));
    repo.write("certs/README.md", "Certificates for the test server.\n");
    repo.write("certs/server.pem", &format!("{}\n", pem(&plain_body1, &plain_body2)));
    repo.write(
        "certs/public.crt",
        &format!(
            "{}\nMIIBszCCAVmgAwIBAgIU\n{}\n",
            concat!("-----BEGIN ", "CERTIFICATE-----"),
            concat!("-----END ", "CERTIFICATE-----")
        ),
    );
    // A CI file full of them (YAML values, quoted and bare).
    let ci_formats = [
        "aws-key-id",
        "github-classic",
        "gitlab",
        "slack-bot",
        "npm",
        "sendgrid",
        "twilio",
        "google",
        "digitalocean",
        "docker",
        "linear",
        "groq",
        "telegram",
        "jwt",
    ];
    let mut ci = String::from("env:\n");
    for (i, format) in ci_formats.iter().enumerate() {
        let value = v(&mut s, format);
        if i % 2 == 0 {
            ci.push_str(&format!("  SERVICE_{i}_TOKEN: \"{value}\"\n"));
        } else {
            ci.push_str(&format!("  SERVICE_{i}_TOKEN: {value}\n"));
        }
    }
    repo.write("deploy/ci.yml", &ci);
    let vault = v(&mut s, "vault");
    repo.write(".env", &format!("VAULT_TOKEN={vault}\n"));

    // A token in a file name and in a folder name.
    let (in_name, in_folder) = (v(&mut s, "github-classic"), v(&mut s, "gitlab"));
    repo.write(&format!("notes/{in_name}.md"), "A note.\n");
    repo.write(&format!("{in_folder}/readme.txt"), "Lost and found.\n");

    // Commit messages.
    let commit_token = v(&mut s, "square");
    repo.git(&["init", "-q"]);
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", &format!("Add payments (token {commit_token})")]);

    // What agents and people hand over: a transcript, records, descriptions, decisions, frames.
    let (pasted, tool_input, tool_output) =
        (v(&mut s, "github-fine-grained"), v(&mut s, "bearer"), v(&mut s, "openai"));
    let session = "7f3e2a10-5c1b-4d2e-9a0f-1b2c3d4e5f61";
    let line = |value: serde_json::Value| serde_json::to_string(&value).unwrap();
    let transcript = [
        line(serde_json::json!({"type": "user", "sessionId": session, "uuid": "u-1", "timestamp": "2026-11-20T09:15:02.118Z",
            "message": {"role": "user", "content": format!("Deploy failed. My token is {pasted}, use it.")}})),
        line(serde_json::json!({"type": "assistant", "sessionId": session, "uuid": "a-1", "timestamp": "2026-11-20T09:15:05.401Z",
            "message": {"role": "assistant", "content": [
                {"type": "text", "text": "Let me check the API with it."},
                {"type": "tool_use", "id": "toolu_01", "name": "Bash",
                 "input": {"command": format!("curl -H 'Authorization: Bearer {tool_input}' https://api.shop.test")}}]}})),
        line(serde_json::json!({"type": "user", "sessionId": session, "uuid": "u-2", "timestamp": "2026-11-20T09:15:06.020Z",
            "message": {"role": "user", "content": [{"tool_use_id": "toolu_01", "type": "tool_result",
                "content": format!("$ cat .env\nOPENAI_API_KEY={tool_output}\nDEBUG=1\n")}]}})),
    ]
    .join("\n");
    repo.write("session.jsonl", &format!("{transcript}\n"));

    let record_note = v(&mut s, "slack-bot");
    let described = v(&mut s, "discord-webhook");
    let rationale = v(&mut s, "mailchimp");
    let frame_goal = v(&mut s, "huggingface");
    let criterion = v(&mut s, "stripe-live");
    let own = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<Vec<_>>();
    let actions = vec![
        own(&[
            "record",
            "add",
            "--type",
            "note",
            "--text",
            &format!("Rotated the bot token {record_note} today"),
        ]),
        own(&["folder", "describe", "ai", "--description", &format!("Clients, webhook {described}")]),
        own(&[
            "log",
            "ai",
            "--title",
            "Keep keys in vault",
            "--rationale",
            &format!("the old key {rationale} leaked"),
        ]),
        own(&["frame", "push", &format!("Fix login for hf {frame_goal}")]),
        own(&[
            "task",
            "add",
            "Rotate payment keys",
            "--epic",
            "F1",
            "--criteria",
            &format!("old key {criterion} revoked"),
        ]),
    ];
    (s, actions)
}

#[test]
fn no_planted_secret_reaches_any_output_file_or_the_database() {
    let repo = Repo::new();
    let (secrets, actions) = plant(&repo);
    let formats: BTreeSet<&str> = secrets.planted.iter().map(|p| p.format).collect();
    assert!(secrets.planted.len() >= 60, "{} secrets planted", secrets.planted.len());
    assert!(formats.len() >= 30, "{} formats", formats.len());

    let mut outputs: Vec<(String, String)> = Vec::new();
    let mut run = |repo: &Repo, args: Vec<String>| {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = repo.ok(&refs);
        outputs.push((args.join(" "), out));
    };
    let owned = |args: &[&str]| args.iter().map(|a| a.to_string()).collect::<Vec<_>>();

    run(&repo, owned(&["init"]));
    for action in actions {
        run(&repo, action);
    }
    run(&repo, owned(&["ingest", "session.jsonl"]));
    run(&repo, owned(&["scan"]));
    run(&repo, owned(&["build", "--force"]));
    for tier in ["minimal", "standard", "full", "deep"] {
        for folder in [".", "ai", "deploy", "core/src", "pkg", "web", "certs", "notes"] {
            run(&repo, owned(&["context", folder, "--tier", tier]));
        }
    }
    run(&repo, owned(&["context", "ai", "--format", "json"]));
    run(&repo, owned(&["map"]));
    run(&repo, owned(&["map", "--tokens", "20000"]));
    run(&repo, owned(&["map", "--tokens", "20000", "--write"]));
    run(&repo, owned(&["--json", "map", "--tokens", "20000"]));
    run(&repo, owned(&["rank", "--query", "deploy token payments", "-k", "50"]));
    run(&repo, owned(&["--json", "rank", "--query", "stripe key"]));
    for query in ["token", "deploy", "curl", "env", "bot", "key"] {
        run(&repo, owned(&["search", query]));
        run(&repo, owned(&["--json", "search", query, "--mode", "hybrid"]));
    }
    let hits = repo.json(&["search", "token", "-k", "20"]);
    for hit in hits["results"].as_array().unwrap() {
        let id = hit["id"].as_str().unwrap();
        run(&repo, owned(&["timeline", id, "--before", "5", "--after", "5"]));
        run(&repo, owned(&["--json", "get", id]));
        run(&repo, owned(&["--json", "get", id, "--head", "200"]));
    }
    run(&repo, owned(&["pack", "--tokens", "4000"]));
    run(&repo, owned(&["--json", "pack"]));
    run(&repo, owned(&["frame", "context"]));
    run(&repo, owned(&["frame", "context", "--format", "json"]));
    run(&repo, owned(&["task", "prompt", "F2"]));
    for command in [
        &["--json", "status"][..],
        &["--json", "folder", "show", "ai"],
        &["--json", "folder", "show", "notes"],
        &["--json", "folder", "show", "."],
        &["--json", "log", "list"],
        &["--json", "frame", "show"],
        &["--json", "task", "list"],
        &["--json", "secrets", "scan"],
        &["secrets", "scan"],
        &["folder", "todo"],
        &["validate"],
    ] {
        let out = repo.run(command);
        outputs.push((command.join(" "), String::from_utf8_lossy(&out.stdout).into_owned()));
    }

    // Every output, every file under .ctx/, the database and its WAL.
    let mut places: Vec<(String, Vec<u8>)> =
        outputs.into_iter().map(|(what, text)| (format!("`ctx {what}`"), text.into_bytes())).collect();
    for entry in walk(&repo.path(".ctx")) {
        places.push((entry.display().to_string(), std::fs::read(&entry).unwrap()));
    }
    let mut leaks = Vec::new();
    for planted in &secrets.planted {
        for (place, bytes) in &places {
            if contains(bytes, planted.value.as_bytes()) {
                leaks.push(format!("{} in {place}", planted.format));
            }
        }
    }
    assert!(leaks.is_empty(), "{} leaks:\n{}", leaks.len(), leaks.join("\n"));
    // Nor as the words ranking stores (lowercased, split at `_`, `-`...): the longest word of each.
    let database = std::fs::read(repo.path(".ctx/ctx.db")).unwrap();
    for planted in &secrets.planted {
        let word = planted.value.split(|c: char| !c.is_ascii_alphanumeric()).max_by_key(|w| w.len()).unwrap();
        if word.len() >= 16 && contains(&database, word.to_lowercase().as_bytes()) {
            leaks.push(format!("{} as the word {word}", planted.format));
        }
    }
    assert!(leaks.is_empty(), "{} leaks:\n{}", leaks.len(), leaks.join("\n"));

    // And the text around them is still there: redacted, not dropped.
    let map = std::fs::read_to_string(repo.path(".ctx/map.md")).unwrap();
    assert!(map.contains("OPENAI_API_KEY = \"[REDACTED:openai-api-key]\""), "{map}");
    assert!(
        map.contains("DATABASE_URL = \"postgres://shop:[REDACTED:connection-string-password]@db.internal"),
        "{map}"
    );
    let ai = repo.context_file("ai.standard.md");
    assert!(ai.contains("Clients, webhook [REDACTED:discord-webhook]"), "{ai}");
    // A public certificate is shown like any file; a private key file is hidden whole.
    let certs = repo.json(&["folder", "show", "certs"]);
    let files = certs["files"].as_array().unwrap();
    let secret_of =
        |name: &str| files.iter().find(|f| f["name"] == name).map(|f| f["secret_reason"].clone()).unwrap();
    assert!(secret_of("public.crt").is_null(), "{certs}");
    assert_eq!(secret_of("server.pem"), "private key", "{certs}");
    // `ctx secrets scan` names where they are, by rule, never the value.
    let report = repo.json(&["secrets", "scan"]);
    let rules: BTreeSet<&str> =
        report["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap()).collect();
    assert!(rules.len() >= 25, "{rules:?}");
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() { out.extend(walk(&path)) } else { out.push(path) }
    }
    out
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}
