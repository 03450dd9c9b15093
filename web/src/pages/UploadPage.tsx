import { UploadEditor } from '../features/pictures/components/UploadEditor';
import './UploadPage.css';

/** Price, a drop zone, the preview, Cancel and Release (SPEC §2 "Upload page", §5 "Upload"). */
export default function UploadPage() {
  return <UploadEditor />;
}
