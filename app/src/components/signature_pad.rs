//! A box to sign in with a finger or a stylus (issue #20): pointer events on a
//! canvas whose own pixels are the signature's coordinates (1000 × 300), so what
//! is drawn is what is stored, at any screen size.

use leptos::prelude::*;

use crate::model::signature::{HEIGHT, WIDTH};

/// The strokes being drawn; the pad draws them again whenever they change
/// (cleared, or restored from a draft).
pub type Strokes = RwSignal<Vec<Vec<[u16; 2]>>>;

#[component]
pub fn SignaturePad(
    /// What the box is for, read by screen readers and shown above it.
    label: String,
    strokes: Strokes,
    #[prop(optional)] testid: &'static str,
    /// Called when a stroke is finished or the pad cleared — not at every point,
    /// so a draft saved on change is saved once a stroke.
    #[prop(optional)]
    on_change: Option<Callback<()>>,
) -> impl IntoView {
    let changed = move || {
        if let Some(on_change) = on_change {
            on_change.run(());
        }
    };
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let drawing = RwSignal::new(false);

    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        let Some(canvas) = canvas.get() else { return };
        strokes.with(|all| paint::all(&canvas, all));
    });

    let down = move |ev: leptos::ev::PointerEvent| {
        #[cfg(feature = "hydrate")]
        if let Some(canvas) = canvas.get_untracked() {
            ev.prevent_default();
            let _ = canvas.set_pointer_capture(ev.pointer_id());
            drawing.set(true);
            let at = paint::point(&canvas, &ev);
            strokes.update(|all| all.push(vec![at]));
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = (ev, drawing);
    };
    let moved = move |ev: leptos::ev::PointerEvent| {
        #[cfg(feature = "hydrate")]
        if drawing.get_untracked() {
            if let Some(canvas) = canvas.get_untracked() {
                ev.prevent_default();
                let at = paint::point(&canvas, &ev);
                strokes.update(|all| {
                    if let Some(stroke) = all.last_mut() {
                        if stroke.last() != Some(&at) {
                            stroke.push(at);
                        }
                    }
                });
            }
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = ev;
    };
    let up = move |_| {
        if drawing.get_untracked() {
            drawing.set(false);
            changed();
        }
    };
    let label_id = format!("{testid}-label");

    view! {
        <div class="signature-pad">
            <p class="subhead" id=label_id.clone()>{label.clone()}</p>
            <canvas node_ref=canvas width=WIDTH.to_string() height=HEIGHT.to_string()
                role="img" aria-labelledby=label_id data-testid=testid
                on:pointerdown=down on:pointermove=moved on:pointerup=up on:pointercancel=up
                on:pointerleave=up></canvas>
            <div class="actions">
                <button type="button" class="secondary" on:click=move |_| { strokes.set(Vec::new()); changed(); }
                    disabled=move || strokes.with(Vec::is_empty)>"Clear"</button>
            </div>
        </div>
    }
}

#[cfg(feature = "hydrate")]
mod paint {
    use leptos::wasm_bindgen::JsCast;
    use leptos::web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, PointerEvent};

    use crate::model::signature::{HEIGHT, WIDTH};

    /// Where the pointer is, in the canvas's own pixels (the signature's box).
    pub fn point(canvas: &HtmlCanvasElement, ev: &PointerEvent) -> [u16; 2] {
        let rect = canvas.get_bounding_client_rect();
        let scale = |at: f64, start: f64, size: f64, max: u16| {
            let v = if size > 0.0 {
                (at - start) / size * f64::from(max)
            } else {
                0.0
            };
            v.round().clamp(0.0, f64::from(max)) as u16
        };
        [
            scale(f64::from(ev.client_x()), rect.left(), rect.width(), WIDTH),
            scale(f64::from(ev.client_y()), rect.top(), rect.height(), HEIGHT),
        ]
    }

    pub fn all(canvas: &HtmlCanvasElement, strokes: &[Vec<[u16; 2]>]) {
        let Some(ctx) = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        ctx.clear_rect(0.0, 0.0, f64::from(WIDTH), f64::from(HEIGHT));
        ctx.set_line_width(6.0);
        ctx.set_line_cap("round");
        ctx.set_line_join("round");
        ctx.set_stroke_style_str("#111418");
        for stroke in strokes.iter().filter(|s| !s.is_empty()) {
            ctx.begin_path();
            let [x, y] = stroke[0];
            ctx.move_to(f64::from(x), f64::from(y));
            if stroke.len() == 1 {
                ctx.line_to(f64::from(x) + 1.0, f64::from(y));
            }
            for [x, y] in &stroke[1..] {
                ctx.line_to(f64::from(*x), f64::from(*y));
            }
            ctx.stroke();
        }
    }
}
