// What each engine call may change, declared once per export (ENGINE_CALLS in wasm_module.ts): whether replayed steps' recipes
// stay valid, whether it is allowed while the application's transform feedback is active, and
// whether it starts a new generation (a refused recipe is asked again only then).

export interface CallEffect {
  /** The call leaves the recipes of replayed steps valid. */
  readonly keepsRecipes: boolean;
  /** 'safe': no WebGL call that active transform feedback forbids; 'checked': XFB_FEEDBACK_ACTIVE
   *  while the application's transform feedback is active or paused; 'checked-unless-owned': checked
   *  except with ownsContext (whose minimal step makes no query); 'checked-unless-paused': only an
   *  active (not paused) one refuses: the call binds no program and draws nothing (as C++). */
  readonly feedback: 'safe' | 'checked' | 'checked-unless-owned' | 'checked-unless-paused';
  /** Pipelines created or restored: a recipe refused before may be given now. */
  readonly newGeneration: boolean;
}

const effect = (keepsRecipes: boolean, feedback: CallEffect['feedback'], newGeneration = false): CallEffect =>
  Object.freeze({ keepsRecipes, feedback, newGeneration });

/** Reads the engine's records, or a query or fence (legal during transform feedback): changes nothing. */
export const READS = effect(true, 'safe');
/** A step in wasm: its recipe (given after it) stays valid. */
export const STEPS = effect(true, 'checked-unless-owned');
/** Sets a uniform: kept values, which replayed steps upload themselves. */
export const SETS_UNIFORM = effect(true, 'checked');
/** Reads a query or a fence whose result may change the next step (a checked step), or draws captured
 *  vertices with the application's own program and state: legal during transform feedback. */
export const POLLS = effect(false, 'safe');
/** Draws with the application's program and vertex array, binding only a texture of xfb's on one
 *  of its units (restored after): the recipes stay valid; legal during transform feedback. */
export const DRAWS = effect(true, 'safe');
/** Any other WebGL work: buffers, programs, uploads, read-backs, captures. */
export const CHANGES = effect(false, 'checked');
/** Creates or adopts a buffer: legal GL while the application's capture is paused (a new buffer,
 *  bound to COPY_WRITE; its paused object is unbound around it, which a paused one allows). */
export const MAKES_BUFFER = effect(false, 'checked-unless-paused');
/** Creates a pipeline. */
export const CREATES_PIPELINE = effect(false, 'checked', true);
/** Rebuilds every object after a context loss (the application's transform feedback died with it). */
export const RESTORES = effect(false, 'safe', true);
