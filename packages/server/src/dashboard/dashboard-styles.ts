/** The dashboard's one stylesheet: light and dark from the system, visible focus, usable at 360 px. */
export const DASHBOARD_CSS = `
:root{--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--panel:#f6f8fa;--accent:#0550ae;--focus:#bf3989;
--ok:#116329;--ok-bg:#dafbe1;--bad:#a40e26;--bad-bg:#ffebe9;--live:#7d4e00;--live-bg:#fff8c5;--idle:#57606a;--idle-bg:#eaeef2;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--panel:#161b22;--accent:#79c0ff;--focus:#f778ba;
--ok:#7ee2a8;--ok-bg:#0f3d24;--bad:#ffa198;--bad-bg:#5a1e1e;--live:#f2cc60;--live-bg:#3b2e05;--idle:#c9d1d9;--idle-bg:#30363d}}
*{box-sizing:border-box}
[hidden]{display:none!important}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem}
.skip:focus{left:.5rem;z-index:2}
.top{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.6rem 1rem;border-bottom:1px solid var(--line);background:var(--panel)}
.brand{font-weight:700;text-decoration:none;color:var(--fg)}
.top nav ul{display:flex;flex-wrap:wrap;gap:.25rem .9rem;list-style:none;margin:0;padding:0}
.top nav a{text-decoration:none;padding:.2rem 0}
.top nav a[aria-current=page]{font-weight:700;border-bottom:2px solid var(--accent)}
.who{margin-left:auto;display:flex;gap:.5rem;align-items:center}
main{padding:1rem;max-width:80rem;margin:0 auto}
main:focus{outline:none}
h1{font-size:1.4rem;margin:.2rem 0 .8rem;overflow-wrap:anywhere}
h2{font-size:1.1rem;margin:1.4rem 0 .5rem}
.muted{color:var(--muted)}
.table-wrap{overflow-x:auto;border:1px solid var(--line);border-radius:6px}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{background:var(--panel);font-weight:600;white-space:nowrap}
td.title{overflow-wrap:anywhere;min-width:12rem}
tr:last-child td{border-bottom:0}
.state{display:inline-block;font-size:.8rem;font-weight:600;padding:.05rem .45rem;border-radius:1rem;white-space:nowrap;background:var(--idle-bg);color:var(--idle)}
.state-SUCCEEDED{background:var(--ok-bg);color:var(--ok)}
.state-FAILED,.state-ERROR,.state-BLOCKED{background:var(--bad-bg);color:var(--bad)}
.state-INPROGRESS,.state-PENDING,.state-CLAIMED{background:var(--live-bg);color:var(--live)}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem .8rem;align-items:flex-end;margin-bottom:1rem}
label{display:flex;flex-direction:column;gap:.15rem;font-size:.85rem;color:var(--muted)}
label.inline{flex-direction:row;align-items:center;gap:.4rem;color:var(--fg)}
input,select,textarea,button{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:.35rem .5rem}
textarea{width:100%;min-height:6rem}
button,.button{cursor:pointer;background:var(--panel);font-weight:600;text-decoration:none;display:inline-block}
button.primary{background:var(--accent);color:var(--bg);border-color:var(--accent)}
button.danger{color:var(--bad)}
.stack{display:grid;gap:.8rem;max-width:44rem}
.stack>*{min-width:0}select{max-width:100%}
ul.note{margin:0;padding-left:1.2rem;font-size:.85rem}
.row{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.pager{display:flex;gap:1rem;margin-top:.8rem}
.empty{padding:1.5rem;border:1px dashed var(--line);border-radius:6px;text-align:center}
.error{color:var(--bad);background:var(--bad-bg);padding:.5rem .8rem;border-radius:6px}
.notice{background:var(--panel);padding:.5rem .8rem;border-radius:6px}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dl.meta dt{color:var(--muted)}dl.meta dd{margin:0;overflow-wrap:anywhere}
ol.timeline{list-style:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:.4rem}
ol.timeline li{border:1px solid var(--line);border-radius:6px;padding:.2rem .5rem;font-size:.85rem}
pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.8rem;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere;max-height:32rem;margin:0}
.panel{border:1px solid var(--line);border-radius:6px;padding:.8rem;margin:.5rem 0}
.grid2{display:grid;grid-template-columns:repeat(auto-fit,minmax(18rem,1fr));gap:1rem}
.shot{max-width:100%;border:1px solid var(--line)}
mark{background:var(--live-bg);color:var(--fg)}
.actions{margin-top:.6rem}
.msg{white-space:pre-wrap;overflow-wrap:anywhere}
time[data-age]{white-space:nowrap}
@media (max-width:40rem){.hide-narrow{display:none}main{padding:.6rem}.who{margin-left:0}}
`;
