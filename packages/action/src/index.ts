import { run } from './main.js';
import { runPost } from './post.js';
import { isPostStep } from './step-state.js';

// One bundle is both steps of action.yml; the saved state tells the post step apart.
void (isPostStep() ? runPost() : run());
