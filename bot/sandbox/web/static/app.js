// Quantum Table sandbox page: a Discord-like text channel acting as one of a few people.
// Everything shown is built with DOM nodes and textContent: no text ever becomes HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const OPTION_TYPES = { 3: "text", 4: "integer", 5: "true/false", 6: "user", 7: "channel",
  8: "role", 9: "user or role", 10: "number", 11: "file" };
const AVATAR_COLOURS = ["#5865f2", "#3ba55c", "#faa61a", "#ed4245", "#eb459e", "#9b59b6",
  "#1abc9c", "#e67e22"];

const state = {
  server: null, channels: [], people: [], bot: null, mentions: { users: {}, roles: {}, channels: {} },
  viewer: null, channel: null, commands: [], seq: 0, lastRender: "", dismissed: new Set(),
  refreshing: false, again: false, highlighted: 0, suggestions: [], current: null, modal: null,
  socket: null, follow: "bottom", ownScroll: 0, jump: null,
  sizes: new ResizeObserver(() => keepInView()),
};

// --- small helpers --------------------------------------------------------------------------

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-")) node.setAttribute(key, String(value));
    else if (key in node) node[key] = value;
    else node.setAttribute(key, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

async function getJSON(url) {
  const response = await fetch(url, { cache: "no-store" });
  const body = await response.json();
  if (!response.ok && body && body.error) throw new Error(body.error);
  return body;
}

async function postJSON(url, body) {
  const response = await fetch(url, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  try {
    return await response.json();
  } catch (_) {
    return { ok: false, error: `The sandbox answered ${response.status}.` };
  }
}

function colourOf(id) {
  let hash = 0;
  for (const ch of String(id)) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return AVATAR_COLOURS[hash % AVATAR_COLOURS.length];
}

function avatar(user, small) {
  const initials = user.bot ? "QT" : (user.name || "?").trim().slice(0, 1).toUpperCase();
  const node = el("span", { class: small ? "avatar small" : "avatar", "aria-hidden": "true" }, initials);
  node.style.background = user.bot ? "#5865f2" : colourOf(user.id);
  return node;
}

function personById(id) { return state.people.find((p) => p.id === id) || null; }
function safeUrl(url) { return /^https?:\/\//i.test(url) ? url : null; }
function timeText(seconds) {
  const when = new Date(seconds * 1000);
  return `Today at ${when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`;
}

// --- markdown (Discord's subset, built as DOM nodes) --------------------------------------------

const INLINE = new RegExp([
  "`[^`\\n]+`", "\\*\\*[\\s\\S]+?\\*\\*", "__[\\s\\S]+?__", "~~[\\s\\S]+?~~",
  "\\*[^*\\n]+?\\*", "\\|\\|[\\s\\S]+?\\|\\|", "<@!?\\d+>", "<@&\\d+>", "<#\\d+>", "<a?:\\w+:\\d+>",
  "<t:-?\\d+(?::[tTdDfFR])?>", "\\[[^\\]\\n]+\\]\\(<?https?:\\/\\/[^)\\s>]+>?\\)",
  "https?:\\/\\/[^\\s<]*[^\\s<.,:;!?'\")\\]]", // an address, less the punctuation after it
].join("|"));
const LIST_ITEM = /^( *)([-*]|\d{1,9}\.) (.*)$/;
// A link to a message or channel of this server opens it here, as Discord's client does.
const JUMP = /^https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/channels\/(\d+)\/(\d+)(?:\/(\d+))?\/?$/i;

function markdown(text, parent) {
  // Code blocks first (nothing inside them is markdown), then line forms, then inline marks.
  const parts = String(text || "").split(/(```[\s\S]*?```)/);
  parts.forEach((part, i) => {
    if (i % 2) parent.append(el("pre", {}, part.slice(3, -3).replace(/^\w*\n/, "")));
    else {
      // The line breaks next to a code block are the block's own.
      let lines = part;
      if (i > 0) lines = lines.replace(/^\n/, "");
      if (i < parts.length - 1) lines = lines.replace(/\n$/, "");
      if (lines) blocks(lines, parent);
    }
  });
  return parent;
}

function blocks(text, parent) {
  // Headings (# to ###), subtext (-#), quotes (> and >>>), lists (- or * or 1.), plain lines.
  const lines = text.split("\n");
  let plain = [];
  let list = null;
  const flush = () => {
    if (plain.length) inline(plain.join("\n"), parent);
    plain = [];
  };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    let m;
    if ((m = LIST_ITEM.exec(line))) {
      flush();
      list = listItem(list, parent, m);
      continue;
    }
    list = null;
    if (line.startsWith(">>> ")) {
      flush();
      parent.append(blocks([line.slice(4), ...lines.slice(i + 1)].join("\n"), el("blockquote")));
      return parent;
    }
    if (line.startsWith("> ") || line === ">") {
      flush();
      const quoted = [];
      while (i < lines.length && (lines[i].startsWith("> ") || lines[i] === ">")) quoted.push(lines[i++].slice(2));
      i -= 1;
      parent.append(blocks(quoted.join("\n"), el("blockquote")));
    } else if ((m = /^(#{1,3}) (.*\S.*)$/.exec(line))) {
      flush();
      parent.append(inline(m[2], el(`h${m[1].length + 2}`, { class: "md-heading" })));
    } else if ((m = /^-# (.*\S.*)$/.exec(line))) {
      flush();
      parent.append(inline(m[1], el("div", { class: "subtext" })));
    } else {
      plain.push(line);
    }
  }
  flush();
  return parent;
}

function listItem(list, parent, match) {
  // Items indented further than the one before nest inside it.
  const [, indent, marker, text] = match;
  const depth = indent.length;
  const stack = list ? list.stack : [];
  while (stack.length && stack[stack.length - 1].depth > depth) stack.pop();
  const ordered = /\d/.test(marker);
  if (stack.length && stack[stack.length - 1].depth === depth && stack[stack.length - 1].ordered !== ordered) stack.pop();
  let top = stack[stack.length - 1];
  if (!top || top.depth < depth) {
    const node = el(ordered ? "ol" : "ul", { class: "md-list" });
    if (ordered) node.start = Number.parseInt(marker, 10);
    if (top && top.node.lastElementChild) top.node.lastElementChild.append(node);
    else parent.append(node);
    top = { node, depth, ordered };
    stack.push(top);
  }
  top.node.append(inline(text, el("li")));
  return { stack };
}

function inline(text, parent) {
  let rest = String(text || "");
  while (rest) {
    const match = INLINE.exec(rest);
    if (!match) { parent.append(rest); break; }
    if (match.index) parent.append(rest.slice(0, match.index));
    parent.append(inlineToken(match[0]));
    rest = rest.slice(match.index + match[0].length);
  }
  return parent;
}

function jumpTarget(url) {
  const m = JUMP.exec(url);
  if (!m || !state.server || m[1] !== state.server.id) return null;
  return { channel: m[2], message: m[3] || null };
}

function jumpLink(target, text) {
  const name = `#${state.mentions.channels[target.channel] || "channel"}`;
  const link = el("a", {
    class: "mention jump-link", href: `#${target.channel}${target.message ? `/${target.message}` : ""}`,
    "data-jump-channel": target.channel, "data-jump-message": target.message || "",
  }, text || (target.message ? `${name} › message` : name));
  link.addEventListener("click", (event) => {
    event.preventDefault();
    jumpTo(target.channel, target.message);
  });
  return link;
}

function inlineToken(token) {
  const wrap = (tag, inner) => inline(inner, el(tag));
  if (token.startsWith("`")) return el("code", {}, token.slice(1, -1));
  if (token.startsWith("**")) return wrap("strong", token.slice(2, -2));
  if (token.startsWith("__")) return wrap("u", token.slice(2, -2));
  if (token.startsWith("~~")) return wrap("s", token.slice(2, -2));
  if (token.startsWith("||")) return wrap("span", token.slice(2, -2));
  if (token.startsWith("*")) return wrap("em", token.slice(1, -1));
  let m;
  if ((m = /^<@!?(\d+)>$/.exec(token))) return el("span", { class: "mention" }, `@${state.mentions.users[m[1]] || "unknown"}`);
  if ((m = /^<@&(\d+)>$/.exec(token))) return el("span", { class: "mention" }, `@${state.mentions.roles[m[1]] || "role"}`);
  if ((m = /^<#(\d+)>$/.exec(token))) {
    const link = el("span", { class: "mention channel-link", role: "link", tabIndex: 0 }, `#${state.mentions.channels[m[1]] || "channel"}`);
    const id = m[1];
    link.addEventListener("click", () => { if (state.channels.some((c) => c.id === id)) openChannel(id); });
    return link;
  }
  if ((m = /^<a?:(\w+):\d+>$/.exec(token))) return document.createTextNode(`:${m[1]}:`);
  if ((m = /^<t:(-?\d+)/.exec(token))) return el("code", {}, new Date(Number(m[1]) * 1000).toLocaleString());
  if ((m = /^\[([^\]]+)\]\(<?([^)>]+)>?\)$/.exec(token))) {
    const target = jumpTarget(m[2]);
    if (target) return jumpLink(target, m[1]);
    const href = safeUrl(m[2]);
    return href ? el("a", { href, target: "_blank", rel: "noopener noreferrer" }, m[1]) : document.createTextNode(m[1]);
  }
  const target = jumpTarget(token);
  if (target) return jumpLink(target, null);
  const href = safeUrl(token);
  return href ? el("a", { href, target: "_blank", rel: "noopener noreferrer" }, token) : document.createTextNode(token);
}

// --- messages ---------------------------------------------------------------------------------

function renderEmbed(embed) {
  const box = el("div", { class: "embed" });
  if (typeof embed.color === "number") box.style.borderLeftColor = `#${embed.color.toString(16).padStart(6, "0")}`;
  const main = el("div", { class: "e-main" });
  if (embed.author && embed.author.name) main.append(el("div", { class: "e-author" }, embed.author.name));
  if (embed.title) main.append(inline(embed.title, el("div", { class: "e-title" })));
  if (embed.description) main.append(markdown(embed.description, el("div", { class: "e-desc" })));
  if (embed.fields && embed.fields.length) {
    const fields = el("div", { class: "e-fields" });
    for (const field of embed.fields) {
      fields.append(el("div", { class: field.inline ? "e-field inline" : "e-field" },
        inline(field.name, el("div", { class: "name" })),
        markdown(field.value, el("div", { class: "value" }))));
    }
    main.append(fields);
  }
  const thumb = embed.thumbnail && embed.thumbnail.url;
  box.append(thumb ? el("div", { class: "with-thumb" }, main, el("img", { class: "e-thumb", src: thumb, alt: "" })) : main);
  if (embed.image && embed.image.url) box.append(image(embed.image, { class: "e-image", alt: embed.title || "image" }));
  if (embed.footer && embed.footer.text) box.append(el("div", { class: "e-footer" }, embed.footer.text));
  return box;
}

function image(media, attrs) {
  // With its size known before it loads, a picture takes its room at once: nothing below it
  // moves when it arrives.
  const node = el("img", { ...attrs, src: media.url });
  if (media.width && media.height) {
    node.width = media.width;
    node.height = media.height;
  }
  return node;
}

function mediaUrl(url, message) {
  const text = String(url || "");
  if (text.startsWith("attachment://")) {
    const found = message.attachments.find((a) => a.filename === text.slice(13));
    return found ? found.url : "";
  }
  return text.startsWith("/api/") ? text : "";
}

function renderButton(button, message) {
  const label = [button.emoji && (button.emoji.name || ""), button.label || ""].filter(Boolean);
  if (button.style === 5 && button.url) {
    const href = safeUrl(button.url);
    return el(href ? "a" : "span", { class: "btn style-5", href, target: "_blank", rel: "noopener noreferrer" }, label.join(" "), " ↗");
  }
  const node = el("button", {
    type: "button", class: `btn style-${button.style || 2}`, disabled: Boolean(button.disabled),
    "data-custom-id": button.custom_id, "data-label": button.label || "",
  }, label.join(" "));
  node.addEventListener("click", () => act("click", { message: message.id, custom_id: button.custom_id }));
  return node;
}

function selectChoices(menu) {
  if (menu.type === 3) return (menu.options || []).map((o) => ({ value: o.value, label: [o.emoji && o.emoji.name, o.label].filter(Boolean).join(" "), title: o.description || "", selected: Boolean(o.default) }));
  const people = state.people.map((p) => ({ value: p.id, label: `@${p.name}` }));
  const channels = state.channels.map((c) => ({ value: c.id, label: `#${c.name}` }));
  const roles = Object.entries(state.mentions.roles).map(([id, name]) => ({ value: id, label: `@${name}` }));
  return { 5: people, 6: roles, 7: people.concat(roles), 8: channels }[menu.type] || [];
}

function renderSelect(menu, message) {
  const multiple = (menu.max_values || 1) > 1;
  const node = el("select", {
    class: "select", disabled: Boolean(menu.disabled), multiple, "data-custom-id": menu.custom_id,
    "aria-label": menu.placeholder || "Make a selection",
  });
  // Discord shows a menu's default option(s), or its placeholder; then, once a person picks,
  // their choice, until the bot edits the message (the node is kept until then).
  const choices = selectChoices(menu);
  const defaults = choices.filter((c) => c.selected);
  if (!multiple) node.append(el("option", { value: "", disabled: true, selected: !defaults.length }, menu.placeholder || "Make a selection"));
  for (const choice of choices) {
    const selected = multiple ? choice.selected : choice === defaults[0];
    node.append(el("option", { value: choice.value, title: choice.title || "", selected }, choice.label));
  }
  const send = () => {
    const values = Array.from(node.selectedOptions).map((o) => o.value).filter((v) => v !== "");
    act("select", { message: message.id, custom_id: menu.custom_id, values });
  };
  if (!multiple) {
    node.addEventListener("change", send);
    return node;
  }
  const apply = el("button", { type: "button", class: "btn style-1", disabled: Boolean(menu.disabled) }, "Choose");
  apply.addEventListener("click", send);
  return el("div", { class: "row" }, node, apply);
}

function renderComponents(components, message, parent) {
  for (const c of components || []) {
    switch (c.type) {
      case 1: parent.append(renderComponents(c.components, message, el("div", { class: "row" }))); break;
      case 2: parent.append(renderButton(c, message)); break;
      case 3: case 5: case 6: case 7: case 8: parent.append(renderSelect(c, message)); break;
      case 9: {
        const section = el("div", { class: "section" }, renderComponents(c.components, message, el("div")));
        if (c.accessory) renderComponents([c.accessory], message, section);
        parent.append(section);
        break;
      }
      case 10: parent.append(markdown(c.content, el("div", { class: "content" }))); break;
      case 11: parent.append(el("img", { class: "e-thumb", src: mediaUrl(c.media && c.media.url, message), alt: c.description || "" })); break;
      case 12: {
        const gallery = el("div", { class: "gallery" });
        for (const item of c.items || []) gallery.append(el("img", { src: mediaUrl(item.media && item.media.url, message), alt: item.description || "" }));
        parent.append(gallery);
        break;
      }
      case 13: parent.append(el("div", {}, "📎 ", (c.file && c.file.url) || "file")); break;
      case 14: parent.append(el("hr", { class: "separator" })); break;
      case 17: {
        const box = renderComponents(c.components, message, el("div", { class: "container" }));
        if (typeof c.accent_color === "number") box.style.borderLeftColor = `#${c.accent_color.toString(16).padStart(6, "0")}`;
        parent.append(box);
        break;
      }
      default: break;
    }
  }
  return parent;
}

function renderMessage(message) {
  const wrapper = el("article", {
    class: message.ephemeral ? "message-block ephemeral-block" : "message-block",
    "data-message-id": message.id, "data-ephemeral": message.ephemeral ? "true" : "false",
  });
  if (message.invoker && message.command) {
    wrapper.append(el("div", { class: "reply-line" }, avatar(message.invoker, true),
      el("span", { class: "who" }, message.invoker.name), " used ",
      el("span", { class: "cmd" }, `/${message.command}`)));
  }
  const body = el("div", { class: "body" });
  const head = el("div", { class: "head" }, el("span", { class: "author" }, message.author.name));
  if (message.author.bot) head.append(el("span", { class: "tag" }, "APP"));
  head.append(el("span", { class: "time" }, timeText(message.timestamp)));
  body.append(head);
  if (message.loading) body.append(el("div", { class: "thinking" }, `${message.author.name} is thinking…`));
  if (message.content) {
    const content = markdown(message.content, el("div", { class: "content" }));
    if (message.edited) content.append(el("span", { class: "edited" }, "(edited)"));
    body.append(content);
  }
  for (const embed of message.embeds || []) body.append(renderEmbed(embed));
  for (const a of message.attachments || []) {
    if (a.in_embed) continue;
    const isImage = (a.content_type || "").startsWith("image/");
    body.append(el("div", { class: "attachment" }, isImage
      ? image(a, { alt: a.description || a.filename })
      : el("a", { href: a.url, download: a.filename }, `📎 ${a.filename}`)));
  }
  renderComponents(message.components, message, body);
  if (message.ephemeral) {
    const dismiss = el("button", { type: "button" }, "Dismiss message");
    dismiss.addEventListener("click", () => { state.dismissed.add(`${state.viewer}:${message.id}`); wrapper.remove(); });
    body.append(el("div", { class: "ephemeral-note" }, "👁 Only you can see this · ", dismiss));
  }
  wrapper.append(el("div", { class: message.ephemeral ? "message ephemeral" : "message" }, avatar(message.author), body));
  return wrapper;
}

function renderMessages(data) {
  const box = $("messages");
  const visible = data.messages.filter((m) => !state.dismissed.has(`${data.viewer}:${m.id}`));
  // The names of mentions come with the messages (a new thread's link reads as its name at
  // once, not after the next list of channels); a name that changed redraws the messages.
  if (data.mentions) state.mentions = data.mentions;
  const names = JSON.stringify(state.mentions);
  const fingerprint = JSON.stringify([data.viewer, data.channel, visible, names]);
  if (fingerprint !== state.lastRender) {
    if (state.lastRender === "") state.follow = "bottom";
    // A message drawn before and unchanged keeps its node: its pictures stay loaded, and a
    // menu keeps the option picked in it.
    const drawn = new Map(Array.from(box.querySelectorAll(":scope > article"), (node) => [node.dataset.messageId, node]));
    const nodes = visible.map((message) => {
      const key = JSON.stringify([message, names]);
      const old = drawn.get(message.id);
      if (old && old.qtKey === key) return old;
      const node = renderMessage(message);
      node.qtKey = key;
      return node;
    });
    box.replaceChildren(...(nodes.length ? nodes : [el("div", { class: "empty" }, "No messages yet. Type / to start a game.")]));
    state.sizes.disconnect();
    for (const node of nodes) state.sizes.observe(node);
    state.lastRender = fingerprint;
  }
  box.dataset.viewer = data.viewer;
  box.dataset.channel = data.channel;
  box.dataset.revision = String(data.revision);
  keepInView();
  if (state.jump && state.jump.channel === data.channel) finishJump(data);
}

// --- keeping the right message in view -----------------------------------------------------------
// The view follows the newest message ("bottom") until the person scrolls up, and again once
// they scroll back down; after a jump it holds the message jumped to. Pictures loading,
// messages growing and the window resizing all re-apply it.

const NEAR_BOTTOM = 48;

function keepInView() {
  const box = $("messages");
  if (state.follow === "bottom") {
    box.scrollTop = box.scrollHeight;
  } else if (state.follow) {
    const node = box.querySelector(`article[data-message-id="${state.follow.message}"]`);
    if (node) {
      const gap = node.getBoundingClientRect().top - box.getBoundingClientRect().top;
      box.scrollTop += gap - Math.max(0, (box.clientHeight - node.offsetHeight) / 2);
    }
  }
  state.ownScroll = box.scrollTop;
}

function onScroll() {
  const box = $("messages");
  if (Math.abs(box.scrollTop - state.ownScroll) < 2) return; // where keepInView put it
  state.follow = box.scrollHeight - box.scrollTop - box.clientHeight < NEAR_BOTTOM ? "bottom" : null;
  state.ownScroll = box.scrollTop;
}

function jumpTo(channelId, messageId) {
  // A link to a message: open its channel, bring the message into view and mark it.
  if (!state.channels.some((c) => c.id === channelId)) {
    showError("That channel is not in the sandbox (any more).");
    return;
  }
  state.jump = { channel: channelId, message: messageId };
  hideError();
  if (channelId !== state.channel) openChannel(channelId);
  else refresh();
}

function finishJump(data) {
  const jump = state.jump;
  state.jump = null;
  if (!jump.message) { state.follow = "bottom"; keepInView(); return; }
  const node = $("messages").querySelector(`article[data-message-id="${jump.message}"]`);
  if (!node) {
    const dismissed = data.messages.some((m) => m.id === jump.message);
    showError(dismissed ? "You dismissed that message." : "That message is not among this channel's recent messages.");
    return;
  }
  state.follow = { message: jump.message };
  keepInView();
  node.classList.remove("jumped");
  void node.offsetWidth; // restart the highlight
  node.classList.add("jumped");
  setTimeout(() => node.classList.remove("jumped"), 2500);
}

async function refresh() {
  if (state.refreshing) { state.again = true; return; }
  state.refreshing = true;
  try {
    do {
      state.again = false;
      const seq = ++state.seq;
      const { viewer, channel } = state;
      if (!viewer || !channel) return;
      const data = await getJSON(`/api/messages?channel=${channel}&viewer=${viewer}`);
      if (seq === state.seq && viewer === state.viewer && channel === state.channel) renderMessages(data);
    } while (state.again);
  } catch (error) {
    showError(`Could not read the channel: ${error.message}`);
  } finally {
    state.refreshing = false;
  }
}

// --- acting -----------------------------------------------------------------------------------

function showError(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = false;
}

function hideError() { $("error").hidden = true; }

async function act(kind, payload) {
  const viewer = state.viewer;
  const result = await postJSON(`/api/${kind}`, { viewer, channel: state.channel, ...payload });
  if (viewer !== state.viewer) return result; // switched person meanwhile: not theirs to see
  if (!result.ok) showError(result.error || "That did not work.");
  else {
    hideError();
    if (result.modal) openModal(result.modal);
  }
  refresh();
  return result;
}

// --- modals -----------------------------------------------------------------------------------

function modalField(field) {
  const label = el("label", {}, field.label || field.custom_id);
  if (field.description) label.append(el("span", { class: "field-desc" }, field.description));
  let input;
  if (field.type === 4) {
    const attrs = { name: field.custom_id, placeholder: field.placeholder || "", required: field.required !== false,
      minLength: field.min_length || 0, value: field.value || "", "data-custom-id": field.custom_id };
    if (field.max_length) attrs.maxLength = field.max_length;
    input = el(field.style === 2 ? "textarea" : "input", attrs);
    if (field.style === 2) input.value = field.value || "";
  } else if (field.type === 3) {
    input = el("select", { name: field.custom_id, multiple: (field.max_values || 1) > 1, "data-custom-id": field.custom_id });
    for (const o of field.options || []) input.append(el("option", { value: o.value, selected: Boolean(o.default) }, o.label));
  } else {
    input = el("span", { class: "muted" }, "This kind of field is not available in the sandbox.");
  }
  label.append(input);
  return label;
}

function openModal(modal) {
  state.modal = { id: modal.id, viewer: state.viewer, fields: modal.fields };
  $("modal-title").textContent = modal.title;
  $("modal-fields").replaceChildren(...modal.fields.map(modalField));
  $("modal-error").hidden = true;
  $("modal-backdrop").hidden = false;
  const first = $("modal-fields").querySelector("input, textarea, select");
  if (first) first.focus();
}

function closeModal() {
  state.modal = null;
  $("modal-backdrop").hidden = true;
  $("modal-fields").replaceChildren();
}

async function submitModal(event) {
  event.preventDefault();
  const open = state.modal;
  if (!open || open.viewer !== state.viewer) { closeModal(); return; }
  const values = {};
  for (const input of $("modal-fields").querySelectorAll("[data-custom-id]")) {
    const id = input.dataset.customId;
    values[id] = input.tagName === "SELECT" ? Array.from(input.selectedOptions).map((o) => o.value) : input.value;
  }
  const result = await postJSON("/api/modal", { viewer: open.viewer, modal: open.id, values });
  if (state.modal !== open) return;
  if (!result.ok) {
    $("modal-error").textContent = result.error || "That did not work.";
    $("modal-error").hidden = false;
    return;
  }
  closeModal();
  hideError();
  if (result.modal) openModal(result.modal);
  refresh();
}

// --- the slash command box --------------------------------------------------------------------

function parseComposer() {
  const text = $("composer").value;
  if (!text.startsWith("/")) return { command: null, typed: text, rest: "" };
  const typed = text.slice(1).replace(/^\s+/, "");
  const words = typed.split(/\s+/).filter(Boolean);
  // Commands are leaves ("qdice start"), so at most one path is a word-prefix of the text.
  const command = state.commands.find((c) => {
    const parts = c.path.split(" ");
    return parts.length <= words.length && parts.every((p, i) => p === words[i].toLowerCase());
  }) || null;
  const rest = command ? words.slice(command.path.split(" ").length).join(" ") : "";
  return { command, typed, rest };
}

function updateComposer() {
  const text = $("composer").value;
  const parsed = parseComposer();
  if (parsed.command) showOptions(parsed.command);
  else hideOptions();
  if (!text.startsWith("/") || (parsed.command && (parsed.rest || text.endsWith(" ")))) {
    hideSuggestions();
    return;
  }
  const typed = parsed.typed.toLowerCase().trim();
  state.suggestions = state.commands.filter((c) => c.path.startsWith(typed) || c.path.split(" ").some((w) => w.startsWith(typed)));
  if (!state.suggestions.length) { hideSuggestions(); return; }
  const exact = state.suggestions.findIndex((c) => c.path === typed);
  state.highlighted = exact >= 0 ? exact : 0;
  drawSuggestions();
}

function drawSuggestions() {
  const box = $("suggestions");
  box.replaceChildren(...state.suggestions.map((command, i) => {
    const item = el("div", { class: "suggestion", role: "option", "aria-selected": i === state.highlighted ? "true" : "false", "data-path": command.path },
      el("span", { class: "path" }, `/${command.path}`), el("span", { class: "desc" }, command.description));
    item.addEventListener("mousedown", (event) => { event.preventDefault(); complete(command); });
    return item;
  }));
  box.hidden = false;
  const current = box.children[state.highlighted];
  if (current) current.scrollIntoView({ block: "nearest" });
}

function hideSuggestions() { $("suggestions").hidden = true; state.suggestions = []; }

function complete(command) {
  $("composer").value = `/${command.path} `;
  hideSuggestions();
  showOptions(command);
  const first = $("options").querySelector("input, select");
  if (first && command.options.some((o) => o.required)) first.focus();
  else $("composer").focus();
}

function optionInput(command, option) {
  const common = { "data-option": option.name, name: option.name, "aria-label": option.name };
  const select = (choices) => {
    const node = el("select", common, el("option", { value: "" }, option.required ? "choose…" : "(none)"));
    for (const [value, label] of choices) node.append(el("option", { value: String(value) }, label));
    return node;
  };
  if (option.choices) return select(option.choices.map((c) => [c.value, c.name]));
  const roles = Object.entries(state.mentions.roles).filter(([, n]) => n !== "@everyone").map(([id, name]) => [id, `@${name}`]);
  const people = state.people.map((p) => [p.id, `@${p.name}`]);
  switch (option.type) {
    case 5: return select([["true", "True"], ["false", "False"]]);
    case 6: return select(people);
    case 7: return select(state.channels.map((c) => [c.id, `#${c.name}`]));
    case 8: return select(roles);
    case 9: return select(people.concat(roles));
    case 11: return el("input", { ...common, disabled: true, placeholder: "files: not in the sandbox" });
    // Text, not type="number" (which drops "abc" without a word): checked when sent.
    case 4: case 10: return el("input", { ...common, type: "text", inputmode: option.type === 4 ? "numeric" : "decimal", "data-number": option.type === 4 ? "whole" : "any" });
    default: {
      const input = el("input", { ...common, type: "text", maxLength: option.max_length || 6000 });
      if (option.autocomplete) attachAutocomplete(command, option, input);
      return input;
    }
  }
}

function attachAutocomplete(command, option, input) {
  const list = el("datalist", { id: `ac-${option.name}` });
  input.setAttribute("list", list.id);
  input.qtList = list;
  let timer = null;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const result = await postJSON("/api/autocomplete", {
        viewer: state.viewer, channel: state.channel, command: command.path, focused: option.name,
        options: { ...collectOptions(command, true), [option.name]: input.value },
      });
      if (result.ok) list.replaceChildren(...result.choices.map((c) => el("option", { value: String(c.value) }, c.name)));
    }, 200);
  });
  input.addEventListener("focus", () => input.dispatchEvent(new Event("input")));
}

function showOptions(command) {
  const box = $("options");
  if (state.current === command && !box.hidden) return;
  state.current = command;
  if (!command.options.length) { hideOptions(); state.current = command; return; }
  box.replaceChildren(...command.options.map((option) => {
    const input = optionInput(command, option);
    input.addEventListener("input", () => clearOptionProblem(input));
    const label = el("label", { class: "option", title: option.description || "" },
      el("span", {}, option.name, option.required ? el("span", { class: "req" }, " *") : null,
        ` · ${OPTION_TYPES[option.type] || "value"}`), input);
    if (input.qtList) label.append(input.qtList);
    return label;
  }));
  box.hidden = false;
}

function hideOptions() {
  $("options").hidden = true;
  $("options").replaceChildren();
  state.current = null;
}

// A number option holding what is no number, or a number out of its bounds, is not sent: the
// option is marked with what is wrong, as in Discord's client.
const WHOLE = /^[-+]?\d+$/;
const DECIMAL = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i;

function optionProblem(option, input) {
  if (option.type !== 4 && option.type !== 10) return null;
  const text = input.value.trim();
  if (text === "") return null;
  const whole = option.type === 4;
  if (!(whole ? WHOLE : DECIMAL).test(text)) return whole ? "Enter a whole number." : "Enter a number.";
  const value = Number(text);
  if (option.min_value != null && value < option.min_value) return `Enter a number of at least ${option.min_value}.`;
  if (option.max_value != null && value > option.max_value) return `Enter a number of at most ${option.max_value}.`;
  return null;
}

function clearOptionProblem(input) {
  const label = input.closest(".option");
  input.removeAttribute("aria-invalid");
  if (!label) return;
  label.classList.remove("invalid");
  for (const note of label.querySelectorAll(".option-error")) note.remove();
}

function markInvalidOptions(command) {
  let first = null;
  for (const option of command.options) {
    const input = $("options").querySelector(`[data-option="${CSS.escape(option.name)}"]`);
    if (!input) continue;
    clearOptionProblem(input);
    const problem = optionProblem(option, input);
    if (!problem) continue;
    const label = input.closest(".option");
    input.setAttribute("aria-invalid", "true");
    label.classList.add("invalid");
    label.append(el("span", { class: "option-error", role: "alert", "data-error-for": option.name }, problem));
    first = first || input;
  }
  if (first) first.focus();
  return Boolean(first);
}

function collectOptions(command, raw) {
  const options = {};
  const parsed = parseComposer();
  for (const token of (parsed.rest || "").match(/\S+:(?:"[^"]*"|\S+)/g) || []) {
    const at = token.indexOf(":");
    options[token.slice(0, at)] = token.slice(at + 1).replace(/^"|"$/g, "");
  }
  for (const input of $("options").querySelectorAll("[data-option]")) {
    if (input.value !== "" || raw) options[input.dataset.option] = input.value;
  }
  return options;
}

async function sendCommand() {
  const text = $("composer").value.trim();
  if (!text) return;
  if (!text.startsWith("/")) {
    showError("The bot answers slash commands only: type / and pick a command.");
    return;
  }
  const parsed = parseComposer();
  if (!parsed.command) {
    showError(`No command ${text.split(/\s+/).slice(0, 2).join(" ")} here. Type / to see them.`);
    return;
  }
  if (markInvalidOptions(parsed.command)) return; // as Discord's client: nothing is sent
  const options = collectOptions(parsed.command, false);
  const result = await act("slash", { command: parsed.command.path, options });
  if (result.ok) {
    $("composer").value = "";
    hideOptions();
    hideSuggestions();
  }
}

function onComposerKey(event) {
  const open = !$("suggestions").hidden && state.suggestions.length;
  if (open && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
    event.preventDefault();
    const step = event.key === "ArrowDown" ? 1 : -1;
    state.highlighted = (state.highlighted + step + state.suggestions.length) % state.suggestions.length;
    drawSuggestions();
  } else if (open && event.key === "Tab") {
    event.preventDefault();
    complete(state.suggestions[state.highlighted]);
  } else if (event.key === "Enter") {
    event.preventDefault();
    if (open && !parseComposer().command) complete(state.suggestions[state.highlighted]);
    else sendCommand();
  } else if (event.key === "Escape") {
    hideSuggestions();
  }
}

// --- people and channels ------------------------------------------------------------------------

// The server's owner (like a manager on Discord) may cancel any table and remove anyone from
// one, after a confirmation: say so where people pick who they act as.
const OWNER_NOTE = "Owns this server: may cancel any table or remove a player from it (after confirming)";

function ownerBadge(person) {
  return person.owner ? [el("span", { class: "owner-badge", title: OWNER_NOTE }, "owner")] : [];
}

function drawPeople() {
  $("people").replaceChildren(...state.people.map((person) => {
    const button = el("button", {
      type: "button", class: "person", role: "radio", "aria-checked": person.id === state.viewer ? "true" : "false",
      "data-person-id": person.id, "data-person": person.name,
    }, avatar(person), el("span", {}, person.name), ...ownerBadge(person));
    button.addEventListener("click", () => actAs(person.id));
    return button;
  }));
  const me = personById(state.viewer);
  if (me) {
    $("me-avatar").replaceWith(Object.assign(avatar(me), { id: "me-avatar" }));
    $("me-name").textContent = me.name;
  }
}

function drawChannels() {
  $("channels").replaceChildren(...state.channels.map((channel) => {
    const button = el("button", { type: "button", "aria-current": channel.id === state.channel ? "true" : "false", "data-channel": channel.name },
      el("span", { class: "hash" }, channel.thread ? "↳" : "#"), channel.name);
    button.addEventListener("click", () => openChannel(channel.id));
    return el("li", { class: channel.thread ? "thread" : "" }, button);
  }));
  const current = state.channels.find((c) => c.id === state.channel);
  $("channel-name").textContent = current ? current.name : "";
  $("composer").placeholder = current ? `Type / to use a command in #${current.name}` : "Type /";
}

function clearChannelView() {
  state.seq += 1; // any read in flight belongs to the previous view
  state.lastRender = "";
  const box = $("messages");
  box.replaceChildren();
  state.sizes.disconnect();
  delete box.dataset.viewer;
  delete box.dataset.channel;
  delete box.dataset.revision;
}

function actAs(personId) {
  if (personId === state.viewer) return;
  state.viewer = personId;
  localStorage.setItem("qt-sandbox-viewer", personId);
  closeModal();
  hideError();
  clearChannelView();
  drawPeople();
  refresh();
}

async function openChannel(channelId) {
  if (channelId === state.channel) return;
  state.channel = channelId;
  localStorage.setItem("qt-sandbox-channel", channelId);
  clearChannelView();
  hideError();
  drawChannels();
  refresh();
  await loadCommands();
}

async function loadState() {
  const data = await getJSON(`/api/state${serverQuery()}`);
  drawServers(data);
  if (data.cluster) startCluster();
  const fingerprint = JSON.stringify([data.server, data.channels, data.people, data.mentions]);
  if (fingerprint === state.stateFingerprint) return;
  state.stateFingerprint = fingerprint;
  state.server = data.server;
  state.channels = data.channels;
  state.people = data.people;
  state.bot = data.bot;
  state.mentions = data.mentions;
  $("server-name").textContent = data.server.name;
  document.title = `#${(state.channels.find((c) => c.id === state.channel) || state.channels[0] || {}).name || "sandbox"} · Quantum Table sandbox`;
  if (!personById(state.viewer)) state.viewer = (personById(localStorage.getItem("qt-sandbox-viewer")) || state.people[0]).id;
  if (!state.channels.some((c) => c.id === state.channel)) {
    const saved = localStorage.getItem("qt-sandbox-channel");
    state.channel = (state.channels.find((c) => c.id === saved) || state.channels[0]).id;
  }
  drawPeople();
  drawChannels();
}

async function loadCommands() {
  const channel = state.channel;
  const data = await getJSON(`/api/commands?channel=${channel}`);
  if (channel !== state.channel) return;
  const before = JSON.stringify(state.commands);
  state.commands = data.commands;
  if (before !== JSON.stringify(state.commands)) {
    state.current = null;
    if ($("composer").value) updateComposer();
  }
  document.body.dataset.commands = String(state.commands.length);
}

// --- servers: one on each shard when several bot processes run ---------------------------------

const servers = { id: localStorage.getItem("qt-sandbox-server"), list: [], key: "" };

function serverQuery() { return servers.id ? `?server=${encodeURIComponent(servers.id)}` : ""; }

function drawServers(data) {
  // The server shown is the one the sandbox answered for (its first one if ours is gone).
  servers.id = data.server.id;
  servers.list = data.servers || [];
  $("servers").hidden = servers.list.length < 2;
  const key = JSON.stringify([servers.id, servers.list]);
  if (key === servers.key) return;
  servers.key = key;
  $("server-switch").replaceChildren(...servers.list.map((s) => el("option", {
    value: s.id, selected: s.id === servers.id, "data-shard": s.shard,
  }, `Shard ${s.shard} · ${s.name}`)));
}

async function switchServer(serverId) {
  if (serverId === servers.id) return;
  servers.id = serverId;
  localStorage.setItem("qt-sandbox-server", serverId);
  clearChannelView();
  hideError();
  hideOptions();
  await loadState();
  await loadCommands();
  await refresh();
}

// --- the cluster panel: which process holds which shard, and signals to try a fail-over ---------

const cluster = { timer: null, busy: false, shards: new Map(), processes: new Map() };
const CLUSTER_ACTIONS = [
  ["stop", "Stop", "SIGTERM: it hands its shards over and exits", 2],
  ["kill", "Kill", "SIGKILL: it dies without a word", 4],
  ["pause", "Pause", "SIGSTOP: it freezes, holding its leases until they run out", 2],
  ["resume", "Resume", "SIGCONT after a pause", 3],
  ["start", "Start again", "Start the process again", 1],
];

function startCluster() {
  if (cluster.timer) return;
  document.body.classList.add("clustered");
  $("cluster-panel").hidden = false;
  pollCluster();
  cluster.timer = setInterval(pollCluster, 1500);
}

async function pollCluster() {
  if (cluster.busy) return;
  cluster.busy = true;
  try {
    drawCluster(await getJSON("/api/cluster"));
  } catch (error) {
    $("cluster-error").textContent = `The cluster could not be read: ${error.message}`;
    $("cluster-error").hidden = false;
  } finally {
    cluster.busy = false;
  }
}

function clusterRow(map, key, list, build) {
  // Rows are made once and then updated, so a button is never replaced under the pointer.
  let row = map.get(key);
  if (!row) {
    row = build();
    map.set(key, row);
    list.append(row);
  }
  return row;
}

function drawShard(shard) {
  const row = clusterRow(cluster.shards, shard.shard, $("cluster-shards"), () => el("li", { "data-shard": shard.shard },
    el("span", { class: "title" }), el("span", { class: "who" }), el("span", { class: "muted lease" })));
  const [title, who, lease] = row.children;
  title.textContent = `Shard ${shard.shard} · ${shard.server}`;
  let holder = "free (nobody holds it)";
  if (shard.live) holder = shard.process ? `${shard.process} (pid ${shard.pid})` : `${shard.holder} (not started here)`;
  else if (shard.holder) holder = `free: ${shard.released ? "let go by" : "lease ran out for"} ${shard.process || `pid ${shard.pid}`}`;
  who.textContent = holder;
  lease.textContent = shard.live ? `epoch ${shard.epoch} · lease ends in ${Math.max(0, shard.expires_in).toFixed(1)} s`
    : shard.epoch ? `epoch ${shard.epoch} · the next holder takes epoch ${shard.epoch + 1}` : "never held";
  row.dataset.live = String(shard.live);
  row.dataset.process = shard.live && shard.process ? shard.process : "";
  row.dataset.epoch = String(shard.epoch);
}

function drawProcess(proc) {
  const row = clusterRow(cluster.processes, proc.name, $("cluster-processes"), () => {
    const actions = el("div", { class: "actions" });
    for (const [action, label, title, style] of CLUSTER_ACTIONS) {
      const button = el("button", { type: "button", class: `btn style-${style}`, title, "data-action": action }, label);
      button.addEventListener("click", () => clusterAction(proc.name, action));
      actions.append(button);
    }
    return el("li", { "data-process-name": proc.name },
      el("span", { class: "title" }), el("span", { class: "state" }), el("span", { class: "muted health" }), actions);
  });
  const [title, stateLine, health, actions] = row.children;
  title.textContent = proc.pid ? `${proc.name} · pid ${proc.pid}` : proc.name;
  const held = proc.shards.length ? `: shard${proc.shards.length > 1 ? "s" : ""} ${proc.shards.join(", ")}` : "";
  stateLine.textContent = proc.state === "exited" ? `exited (code ${proc.exit_code})` : `${proc.state}${held}`;
  health.textContent = proc.health || "";
  row.dataset.state = proc.state;
  const running = !["exited", "not started"].includes(proc.state);
  const allowed = {
    stop: running && proc.state !== "paused", kill: running, pause: running && proc.state !== "paused",
    resume: proc.state === "paused", start: !running,
  };
  for (const button of actions.children) button.disabled = !allowed[button.dataset.action];
}

function drawCluster(data) {
  $("cluster-error").hidden = !data.error;
  $("cluster-error").textContent = data.error || "";
  data.shards.forEach(drawShard);
  data.processes.forEach(drawProcess);
  $("cluster-standby").textContent = data.standby.length
    ? `Standby: ${data.standby.join(", ")} (takes over the moment a lease ends)`
    : "No standby: a shard whose process ends waits for it to start again.";
  document.body.dataset.cluster = String(data.processes.length);
}

async function clusterAction(name, action) {
  const result = await postJSON("/api/cluster", { process: name, action });
  if (!result.ok) showError(result.error || "That did not work.");
  await pollCluster();
}

// --- live updates -------------------------------------------------------------------------------

function connect() {
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/events`);
  state.socket = socket;
  socket.addEventListener("message", async (event) => {
    const data = JSON.parse(event.data);
    if (data.type === "hello") {
      $("live").textContent = "● live";
      $("live").classList.remove("offline");
      document.body.dataset.live = "true";
    }
    await Promise.all([refresh(), loadState().catch(() => {}), loadCommands().catch(() => {})]);
  });
  socket.addEventListener("close", () => {
    $("live").textContent = "reconnecting…";
    $("live").classList.add("offline");
    document.body.dataset.live = "false";
    setTimeout(connect, 1000);
  });
}

async function main() {
  $("composer").addEventListener("input", updateComposer);
  $("composer").addEventListener("keydown", onComposerKey);
  $("composer").addEventListener("blur", () => setTimeout(hideSuggestions, 150));
  $("composer-form").addEventListener("submit", (event) => { event.preventDefault(); sendCommand(); });
  $("error").addEventListener("click", hideError);
  $("messages").addEventListener("scroll", onScroll, { passive: true });
  new ResizeObserver(() => keepInView()).observe($("messages"));
  $("modal").addEventListener("submit", submitModal);
  $("modal-cancel").addEventListener("click", closeModal);
  $("server-switch").addEventListener("change", (event) => switchServer(event.target.value));
  document.addEventListener("keydown", (event) => { if (event.key === "Escape" && state.modal) closeModal(); });
  await loadState();
  await loadCommands();
  await refresh();
  connect();
  document.body.dataset.ready = "true";
}

main().catch((error) => showError(`The sandbox page could not start: ${error.message}`));
